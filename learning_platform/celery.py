"""The Celery app.

Workers: `celery -A learning_platform worker`; beat: `celery -A learning_platform beat`.
"""

import importlib
import importlib.util
import logging
import os
from typing import Any, ParamSpec, TypeVar

from celery import Celery, signals
from celery.contrib.django.task import DjangoTask
from django.apps import apps

# Connects, on import, the receivers that time tasks, log them and carry the request id.
from learning_platform import observe_tasks

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "learning_platform.settings")

_P = ParamSpec("_P")
_R = TypeVar("_R")


class Task(DjangoTask[_P, _R]):
    """Every task of the project: Celery's Django task, whose `delay_on_commit` and
    `apply_async_on_commit` go through the outbox, so a broker outage at commit keeps the task
    for the sweep instead of losing it (learning_platform/outbox.py)."""

    # No AsyncResult: the outbox may publish after the commit, or the sweep much later.
    def delay_on_commit(self, *args: _P.args, **kwargs: _P.kwargs) -> None:  # type: ignore[override]
        self.apply_async_on_commit(args=args, kwargs=kwargs)

    def apply_async_on_commit(  # type: ignore[override]  # as delay_on_commit: no AsyncResult
        self,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        # The outbox stores UnsentTask rows: its module needs Django's app registry, which is
        # not ready when this module is imported (by Django's settings, through __init__).
        from learning_platform.outbox import publish_on_commit

        publish_on_commit(self, args=args or (), kwargs=kwargs, options=options or None)


app = Celery("learning_platform", task_cls=Task)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def import_task_modules() -> None:
    """Register every app's tasks now (autodiscovery is lazy), for code that looks them up
    by name outside a worker: the delay check, the embedded scheduler."""
    for config in apps.get_app_configs():
        module = f"{config.name}.tasks"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)


@signals.worker_init.connect
def _refuse_delays_longer_than_the_visibility_timeout(**kwargs: Any) -> None:
    """A worker does not start when a task could wait in the broker past the visibility
    timeout (learning_platform/checks.py). SystemExit: Celery logs and ignores exceptions."""
    from learning_platform.checks import delay_errors

    errors = delay_errors()
    if errors:
        raise SystemExit("Celery delays exceed the visibility timeout:\n" + "\n".join(errors))


@signals.task_prerun.connect
@signals.task_postrun.connect
def _close_old_database_connections(sender: Task[..., Any] | None = None, **kwargs: Any) -> None:
    """What Django does around each request: drop connections past CONN_MAX_AGE or broken.

    Not for tasks run in-process (embedded mode, tests): they share the caller's connection.
    """
    if sender is None or getattr(sender.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


@signals.task_postrun.connect
def _settle_outbox_row(
    sender: Task[..., Any] | None = None,
    retval: Any = None,
    state: str | None = None,
    **kwargs: Any,
) -> None:
    """A task published through the outbox carries its row's id: delete the row once the task
    has run, keep it for the sweep when the task failed (learning_platform/outbox.py). A retry
    is a new message with the same header: the row stays until that one ends."""
    if sender is None or state not in ("SUCCESS", "FAILURE"):
        return
    from learning_platform import outbox

    outbox_id = observe_tasks.message_header(sender.request, outbox.HEADER)
    if outbox_id is None:
        return
    error = "" if state == "SUCCESS" else f"{type(retval).__name__}: {retval}"
    outbox.task_done(outbox_id, succeeded=state == "SUCCESS", error=error)


def queue_names() -> list[str]:
    """The queues workers consume: the default one, those declared and those routed to."""
    names = {app.conf.task_default_queue}
    names.update(queue.name for queue in app.conf.task_queues or ())
    routes = app.conf.task_routes
    if isinstance(routes, dict):
        names.update(
            route["queue"]
            for route in routes.values()
            if isinstance(route, dict) and route.get("queue")
        )
    return sorted(names)


def queue_lengths() -> dict[str, int] | None:
    """Messages waiting per queue, read from the broker in one short connection (a passive
    declare, which Redis and AMQP both answer); None when the broker does not answer."""
    lengths: dict[str, int] | None = None
    try:
        with app.connection_for_read() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=2)
            lengths = {}
            for name in queue_names():
                # AMQP closes a channel whose passive declare found no queue: one each.
                channel: Any = connection.channel()
                try:
                    lengths[name] = _length(channel, name, connection.channel_errors)
                finally:
                    channel.close()
    except Exception:
        logging.getLogger(__name__).warning("Could not read the queues' lengths", exc_info=True)
    return lengths


def _length(channel: Any, queue: str, channel_errors: tuple[type[BaseException], ...]) -> int:
    try:
        return int(channel.queue_declare(queue=queue, passive=True).message_count)
    except channel_errors:
        return 0  # not declared yet (Redis: empty): nothing waits in it
