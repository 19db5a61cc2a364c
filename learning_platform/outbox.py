"""Publishing Celery tasks so that no crash, broker outage or broker loss drops one.

`publish_on_commit(task, ...)` writes the task as a row (`UnsentTask`) in the current
transaction, so the change and its side effect commit together or not at all; after the commit
it publishes the task, and the worker deletes the row once the task has run. A row still there at
its `due_at` is published again by the periodic sweep (`learning_platform.send_unsent_tasks`):

- the web process died between the commit and the publish;
- the broker was unreachable (the row is then due at once, and this process writes tasks
  without trying the broker for BROKER_RETRY_AFTER seconds, so requests during an outage pay no
  connection attempt);
- the broker lost the message (Redis FLUSHDB, a restart without persistence);
- the task failed for good (the row is due again after a growing delay, up to
  OUTBOX_MAX_ATTEMPTS publishes, then left for an operator in the admin).

A published row is due again OUTBOX_REDELIVER_AFTER seconds later (after its countdown), long
enough for a queued task to run, so the sweep rarely publishes a task twice. Tasks published
this way must be idempotent: one may run twice when a worker or the sweep dies at the wrong time.

Tests run tasks in-process (CELERY_TASK_ALWAYS_EAGER): nothing is published, so no row is
written; the task runs at commit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from celery import Task
from celery.exceptions import NotRegistered
from django.conf import settings
from django.db import transaction
from django.db.models import Count, Min, Q
from kombu.exceptions import OperationalError
from redis.exceptions import TimeoutError as RedisTimeoutError

from learning_platform import clock
from learning_platform.breaker import Breaker
from learning_platform.models import UnsentTask
from learning_platform.observe import current_request_id
from learning_platform.observe_tasks import REQUEST_ID_HEADER

logger = logging.getLogger(__name__)


def no_retry_after_silence(error: BaseException, interval: float) -> None:
    """kombu calls this before its retry: a broker that did not answer in time (a timeout)
    would hold the request as long again, so the error is raised instead; a connection it
    closed (a restart) is worth the retry on a new one."""
    if isinstance(error, TimeoutError | RedisTimeoutError):
        raise error


# One quick retry: a broker that does not answer is handled by the sweep, not by the request.
PUBLISH_RETRY_POLICY: dict[str, Any] = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.1,
    "errback": no_retry_after_silence,
}
# Seconds a publish may wait on the broker: RabbitMQ's confirm (a broker that blocks publishers
# when short of memory or disk would otherwise hold the request; the row waits for the sweep).
PUBLISH_TIMEOUT = 5
PUBLISH_OPTIONS: dict[str, Any] = {"timeout": PUBLISH_TIMEOUT, "confirm_timeout": PUBLISH_TIMEOUT}
SWEEP_BATCH_SIZE = 500
UNKNOWN_TASK = "no task of this name in the project"
# The message header that names a task's row; the worker deletes that row when the task is done.
HEADER = "outbox_id"
# A failed task is due again after this delay, doubled on each attempt, at most MAX_BACKOFF.
MAX_BACKOFF = timedelta(hours=6)

# Open after a publish found the broker unreachable: rows wait for the sweep meanwhile.
BREAKER = Breaker("broker", reset_after=lambda: float(settings.BROKER_RETRY_AFTER))


class BrokerError(Exception):
    """The broker could not take the message; every row after it would fail the same way."""


def publish_on_commit(
    task: Task[..., Any],
    *,
    args: tuple[Any, ...] | list[Any] = (),
    kwargs: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> None:
    """Keep `task` (JSON-serialisable arguments) with the current transaction and publish it
    after the commit; never raises because of the broker."""
    from learning_platform.celery import app

    request_id = current_request_id.get() or ""
    if app.conf.task_always_eager:
        # The request id goes with the task, as in a message: a commit may come after the request.
        eager = dict(options or {})
        if request_id:
            eager["headers"] = {**eager.get("headers", {}), REQUEST_ID_HEADER: request_id}
        transaction.on_commit(
            lambda: task.apply_async(args=tuple(args), kwargs=kwargs or {}, **eager)
        )
        return
    try:
        due_at = _redeliver_at(options or {})
    except (TypeError, ValueError):
        due_at = clock.now()  # bad options: the publish marks the row with its error
    row = UnsentTask.objects.create(
        task=task.name,
        args=list(args),
        kwargs=kwargs or {},
        options=options or {},
        due_at=due_at,
        request_id=request_id,
    )
    transaction.on_commit(lambda: _publish_after_commit(row))


def _publish_after_commit(row: UnsentTask) -> None:
    # No query when the publish succeeds: the row's due_at was set when it was written.
    try:
        _publish(row)
    except BrokerError as exc:
        UnsentTask.objects.filter(pk=row.pk).update(due_at=clock.now(), last_error=str(exc))
    except Exception as exc:
        _mark_failed(row, exc)


def send_unsent_tasks(*, batch_size: int = SWEEP_BATCH_SIZE) -> int:
    """Publish the rows that are due, oldest first, at most `batch_size`; stop at the first
    broker failure. A row that fails for another reason (unknown task, bad options) is marked
    with its error and skipped.

    Rows are claimed with SELECT ... FOR UPDATE SKIP LOCKED, so two sweeps never publish the
    same row. Returns how many were published.
    """
    BREAKER.reset()  # the sweep always tries the broker
    published = 0
    with transaction.atomic():
        rows = list(
            UnsentTask.objects.select_for_update(skip_locked=True)
            .filter(due_at__lte=clock.now(), attempts__lt=settings.OUTBOX_MAX_ATTEMPTS)
            .order_by("id")[:batch_size]
        )
        for row in rows:
            try:
                due_at = _publish(row)
            except BrokerError as exc:
                UnsentTask.objects.filter(pk=row.pk).update(
                    attempts=row.attempts + 1, last_error=str(exc)
                )
                break
            except Exception as exc:
                _mark_failed(row, exc)
                continue
            if due_at is not None:
                UnsentTask.objects.filter(pk=row.pk).update(
                    due_at=due_at, attempts=row.attempts + 1
                )
            published += 1
    if published:
        logger.info("Published %d kept task(s).", published)
    return published


def task_done(outbox_id: object, *, succeeded: bool, error: str = "") -> None:
    """Called by the worker after a task published with a row ran (learning_platform/celery.py):
    delete the row, or, after a failure, make it due again later."""
    if not isinstance(outbox_id, int):
        return
    if succeeded:
        UnsentTask.objects.filter(pk=outbox_id).delete()
        return
    row = UnsentTask.objects.filter(pk=outbox_id).first()
    if row is not None:
        _mark_failed(row, error)


def discard_unsent(*, task: str, matching: Callable[[dict[str, Any]], bool]) -> int:
    """Delete the rows of `task` not yet run whose kwargs `matching` accepts; how many. For
    what must never be sent any more: an e-mail to a deleted account's address, which an
    outage could otherwise keep here for good (a row out of attempts waits for an operator)."""
    rows = UnsentTask.objects.filter(task=task).only("pk", "kwargs")
    doomed = [row.pk for row in rows if matching(row.kwargs)]
    deleted: int = UnsentTask.objects.filter(pk__in=doomed).delete()[0]
    return deleted


def _publish(row: UnsentTask) -> datetime | None:
    """Publish `row`'s task, or raise BrokerError (the broker) or another exception (the row).
    Returns when it may be published again (None: it ran here and its row is gone)."""
    from learning_platform.celery import app

    task = _registered_task(row.task)
    if task is None:
        raise NotRegistered(UNKNOWN_TASK)
    options = dict(row.options)
    if app.conf.task_always_eager:
        # The task runs here, now; what it raises is its own error (tests propagate it).
        task.apply_async(args=tuple(row.args), kwargs=row.kwargs, **options)
        UnsentTask.objects.filter(pk=row.pk).delete()
        return None
    if BREAKER.is_open():
        raise BrokerError("broker unreachable (paused)")
    # Invalid options fail here, before any connection: they are the row's error.
    due_at = _redeliver_at(options)
    headers = {**options.pop("headers", {}), HEADER: row.pk}
    if row.request_id:
        headers[REQUEST_ID_HEADER] = row.request_id
    try:
        task.apply_async(
            args=tuple(row.args),
            kwargs=row.kwargs,
            headers=headers,
            retry=True,
            retry_policy=PUBLISH_RETRY_POLICY,
            **PUBLISH_OPTIONS,
            **options,
        )
    except _broker_errors() as exc:
        BREAKER.failed()
        logger.warning("Could not publish %s; kept for the sweep.", row.task, exc_info=True)
        raise BrokerError(f"{type(exc).__name__}: {exc}"[:500]) from exc
    BREAKER.succeeded()
    return due_at


def _mark_failed(row: UnsentTask, error: BaseException | str) -> None:
    """Keep a row whose task could not be published or failed, due again after a backoff."""
    if isinstance(error, BaseException):
        if not isinstance(error, NotRegistered):
            logger.error("Kept task %s (row %s) failed; skipped.", row.task, row.pk, exc_info=error)
        error = f"{type(error).__name__}: {error}"
    backoff = min(
        timedelta(seconds=settings.OUTBOX_REDELIVER_AFTER) * 2 ** min(row.attempts, 16),
        MAX_BACKOFF,
    )
    UnsentTask.objects.filter(pk=row.pk).update(
        attempts=row.attempts + 1, last_error=error[:500], due_at=clock.now() + backoff
    )


def _redeliver_at(options: dict[str, Any]) -> datetime:
    """When a task published now may be published again: after its countdown and the time a
    queued task needs to run. Raises TypeError/ValueError for options Celery would refuse."""
    countdown = options.get("countdown") or 0
    eta = options.get("eta")
    start = clock.now() + timedelta(seconds=float(countdown))
    if eta is not None:
        start = max(start, datetime.fromisoformat(str(eta)))
    return start + timedelta(seconds=settings.OUTBOX_REDELIVER_AFTER)


def _broker_errors() -> tuple[type[BaseException], ...]:
    """What a publish raises when the broker is unreachable or refuses it for now: its
    transport's connection and channel errors (RabbitMQ's nack of a confirmed publish among
    the recoverable ones), and any socket error."""
    from learning_platform.celery import app

    connection = app.connection_for_write()
    try:
        return (
            OSError,
            OperationalError,
            *connection.connection_errors,
            *connection.channel_errors,
            *connection.recoverable_connection_errors,
        )
    finally:
        connection.release()


def _registered_task(task_name: str) -> Task[..., Any] | None:
    """The task of that name, or None. A process that is not a worker (a sweep run from a
    script or a shell) knows only the tasks whose modules it imported: it imports every app's
    tasks first, as a worker does when it starts."""
    from learning_platform.celery import app

    try:
        return app.tasks[task_name]
    except NotRegistered:
        app.loader.import_default_modules()
    return app.tasks.get(task_name)


def backlog() -> dict[str, Any]:
    """For the metrics: rows pending and given up (OUTBOX_MAX_ATTEMPTS reached), and when the
    oldest pending row was written (None: none). One query."""
    pending = Q(attempts__lt=settings.OUTBOX_MAX_ATTEMPTS)
    return UnsentTask.objects.aggregate(
        pending=Count("id", filter=pending),
        given_up=Count("id", filter=~pending),
        oldest=Min("created_at", filter=pending),
    )
