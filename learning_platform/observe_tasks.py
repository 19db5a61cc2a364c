"""Seeing inside a task: its wait and run time, its one log line, the request that caused it.

Connected by learning_platform/celery.py, in every process that loads the Celery app:

- publishing a task stamps its message with `published_at` and the current request id (a
  row of the outbox carries the id it was written with: learning_platform/outbox.py);
- a task's start observes `lp_celery_task_wait_seconds` (from the publish, or its ETA) and
  makes the message's request id the current one, so the task's log records and the tasks it
  publishes carry it; its end observes `lp_celery_task_duration_seconds` and writes one log
  line (`learning_platform.task`: task, task id, state, wait, duration, request id);
- a worker with WORKER_METRICS_PORT serves its metrics on that port (prometheus-client's
  server in the worker's main process; the pool processes write to PROMETHEUS_MULTIPROC_DIR).
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import time
from datetime import datetime
from typing import Any

from celery import signals
from django.conf import settings
from prometheus_client import start_http_server

from learning_platform import clock, metrics
from learning_platform.observe import RequestIdFilter, current_request_id, json_formatter

REQUEST_ID_HEADER = "request_id"
PUBLISHED_AT_HEADER = "published_at"

logger = logging.getLogger(__name__)
task_logger = logging.getLogger("learning_platform.task")
# Kept on the running task's request context (Celery's per-execution object) from prerun to
# postrun: (monotonic start, wait in seconds or None, the request id's reset token).
_STARTED = "_lp_started"


def message_header(request: Any, name: str) -> Any:
    """A custom header of the running task's message (Celery puts them on the request, or
    leaves them in `headers` when run in-process)."""
    return getattr(request, name, None) or (getattr(request, "headers", None) or {}).get(name)


@signals.before_task_publish.connect
def _stamp_message(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    if headers is None:
        return
    headers[PUBLISHED_AT_HEADER] = clock.timestamp()
    request_id = current_request_id.get()
    if request_id and not headers.get(REQUEST_ID_HEADER):
        headers[REQUEST_ID_HEADER] = request_id


def _wait(request: Any) -> float | None:
    published_at = message_header(request, PUBLISHED_AT_HEADER)
    if not isinstance(published_at, int | float):
        return None
    ready_at = float(published_at)
    eta = getattr(request, "eta", None)
    if eta:
        with contextlib.suppress(ValueError):
            ready_at = max(ready_at, datetime.fromisoformat(str(eta)).timestamp())
    return clock.elapsed(clock.timestamp() - ready_at, measure="task_wait")


@signals.task_prerun.connect
def _task_started(task_id: str | None = None, task: Any = None, **kwargs: Any) -> None:
    if task_id is None or task is None:
        return
    request_id = message_header(task.request, REQUEST_ID_HEADER) or current_request_id.get()
    token = current_request_id.set(request_id)
    wait = _wait(task.request)
    if wait is not None:
        metrics.TASK_WAIT.labels(task.name).observe(wait)
    setattr(task.request, _STARTED, (time.perf_counter(), wait, token))


@signals.task_postrun.connect
def _task_finished(
    task_id: str | None = None, task: Any = None, state: str | None = None, **kwargs: Any
) -> None:
    if task_id is None or task is None:
        return
    started: tuple[float, float | None, contextvars.Token[str | None]] | None = getattr(
        task.request, _STARTED, None
    )
    if started is None:
        return
    began, wait, token = started
    duration = time.perf_counter() - began
    metrics.TASK_DURATION.labels(task.name, state or "UNKNOWN").observe(duration)
    fields = {
        "task": task.name,
        "task_id": task_id,
        "state": state,
        "duration_ms": round(duration * 1000, 2),
        "wait_ms": round(wait * 1000, 2) if wait is not None else None,
        "request_id": current_request_id.get() or "-",
    }
    task_logger.info(
        "%s %s %s %.1fms", task.name, task_id, state, fields["duration_ms"], extra=fields
    )
    try:
        current_request_id.reset(token)
    except ValueError:
        current_request_id.set(None)  # set in another context (a thread pool's hand-over)


@signals.after_setup_logger.connect
@signals.after_setup_task_logger.connect
def _json_worker_logs(logger: logging.Logger | None = None, **kwargs: Any) -> None:
    """Celery configures a worker's logging itself; with LOG_FORMAT=json its lines are JSON
    too, stamped with the request id."""
    if logger is None or settings.LOG_FORMAT != "json":
        return
    for handler in logger.handlers:
        handler.setFormatter(json_formatter())
        handler.addFilter(RequestIdFilter())


@signals.worker_init.connect
def _serve_worker_metrics(**kwargs: Any) -> None:
    if not settings.WORKER_METRICS_PORT:
        return
    if not metrics.multiprocess_dir():
        logger.warning(
            "WORKER_METRICS_PORT without PROMETHEUS_MULTIPROC_DIR: the pool processes' "
            "metrics are not served, only this process's"
        )
    metrics.clear_multiprocess_dir()
    start_http_server(
        settings.WORKER_METRICS_PORT,
        addr=settings.WORKER_METRICS_ADDR,
        registry=metrics.worker_registry(),
    )


@signals.worker_process_shutdown.connect
def _pool_process_exited(**kwargs: Any) -> None:
    metrics.mark_process_dead(os.getpid())
