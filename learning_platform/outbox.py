"""Publishing Celery tasks so that a broker outage loses none of them.

`publish_on_commit(task, ...)` publishes once the current transaction commits. When the broker
cannot be reached the task is written to the database (`UnsentTask`) instead, the request
answers as usual, and the periodic `learning_platform.send_unsent_tasks` publishes it once the
broker is back. After a failed publish this process writes tasks straight to the database for
BROKER_RETRY_AFTER seconds, so requests during an outage pay no connection attempt.

Tasks published this way must be idempotent: one published by the sweep may already have run
if a worker or the sweep dies between publishing and deleting its row.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import Task
from celery.exceptions import NotRegistered
from django.conf import settings
from django.db import transaction

from learning_platform.models import UnsentTask

logger = logging.getLogger(__name__)

# One quick retry: a broker that does not answer is handled by the sweep, not by the request.
PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.1}
SWEEP_BATCH_SIZE = 500
UNKNOWN_TASK = "NotRegistered: no task of this name in the project"

_paused_until = 0.0


def publish_on_commit(
    task: Task[..., Any],
    *,
    args: tuple[Any, ...] | list[Any] = (),
    kwargs: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> None:
    """Publish `task` with JSON-serialisable arguments after the current transaction commits;
    never raises because of the broker."""
    transaction.on_commit(lambda: publish(task.name, args=args, kwargs=kwargs, options=options))


def publish(
    task_name: str,
    *,
    args: tuple[Any, ...] | list[Any] = (),
    kwargs: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> bool:
    """Publish now, or keep the task for the sweep when the broker cannot be reached.
    True when published."""
    error = _try_publish(task_name, args=args, kwargs=kwargs, options=options)
    if error is None:
        return True
    UnsentTask.objects.create(
        task=task_name,
        args=list(args),
        kwargs=kwargs or {},
        options=options or {},
        last_error=error[:500],
    )
    return False


def send_unsent_tasks(*, batch_size: int = SWEEP_BATCH_SIZE) -> int:
    """Publish the kept tasks, oldest first, at most `batch_size`; stop at the first failure.

    Rows are claimed with SELECT ... FOR UPDATE SKIP LOCKED, so two sweeps never publish the
    same row. Returns how many were published.
    """
    global _paused_until
    _paused_until = 0.0  # the sweep always tries the broker
    published: list[int] = []
    with transaction.atomic():
        rows = list(
            UnsentTask.objects.select_for_update(skip_locked=True).order_by("id")[:batch_size]
        )
        for row in rows:
            if _registered_task(row.task) is None:
                # Renamed or removed since it was kept: no broker will ever take it. Kept for an
                # operator (the admin lists it), and the tasks after it still go out.
                logger.error("Kept task %r is not a task of this project; skipped.", row.task)
                UnsentTask.objects.filter(pk=row.pk).update(
                    attempts=row.attempts + 1, last_error=UNKNOWN_TASK
                )
                continue
            error = _try_publish(row.task, args=row.args, kwargs=row.kwargs, options=row.options)
            if error is not None:
                UnsentTask.objects.filter(pk=row.pk).update(attempts=row.attempts + 1)
                break
            published.append(row.pk)
        UnsentTask.objects.filter(pk__in=published).delete()
    if published:
        logger.info("Published %d task(s) kept while the broker was unreachable.", len(published))
    return len(published)


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


def _try_publish(
    task_name: str,
    *,
    args: tuple[Any, ...] | list[Any],
    kwargs: dict[str, Any] | None,
    options: dict[str, Any] | None,
) -> str | None:
    """None when published, else the error (logged)."""
    global _paused_until
    from learning_platform.celery import app

    task = _registered_task(task_name)
    if task is None:
        return UNKNOWN_TASK
    if app.conf.task_always_eager:
        # Nothing to publish: the task runs here, now. What it raises is its own error, not the
        # broker's (tests propagate it, CELERY_TASK_EAGER_PROPAGATES), so it is not kept.
        task.apply_async(args=tuple(args), kwargs=kwargs or {}, **(options or {}))
        return None
    if _paused_until > time.monotonic():
        return "broker unreachable (paused)"
    try:
        task.apply_async(
            args=tuple(args),
            kwargs=kwargs or {},
            retry=True,
            retry_policy=PUBLISH_RETRY_POLICY,
            **(options or {}),
        )
    except Exception as exc:
        _paused_until = time.monotonic() + settings.BROKER_RETRY_AFTER
        logger.warning("Could not publish %s; kept for the sweep.", task_name, exc_info=True)
        return f"{type(exc).__name__}: {exc}"
    return None
