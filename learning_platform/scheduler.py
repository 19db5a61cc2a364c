"""Periodic jobs without beat, for the embedded default.

With no broker (`make run`: tasks run in-process) nobody runs `celery beat`, so the jobs of
CELERY_BEAT_SCHEDULE (reply digests, the outbox sweep, the submission sweep, the boards) would
never run. The development server starts one thread per serving process
(`learning_platform/devserver`: its `runserver`) that runs each entry of that same schedule
in-process when it is due: first within a minute of the server's start (after its interval, if
shorter), so a reload of the development server holds nothing back for long, then every
interval, as beat would publish it.

Off under tests and whenever a broker is configured: then `make beat` runs the schedule,
exactly one per deployment. `EMBEDDED_SCHEDULER` turns it on or off explicitly.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections

from learning_platform.celery import app, import_task_modules

logger = logging.getLogger(__name__)


@dataclass
class Job:
    """One entry of the beat schedule and when it is next due (on the scheduler's clock)."""

    name: str
    task: str
    every: float
    due_at: float
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)


# The longest a job waits for its first run: runserver restarts on every code change, and a
# daily job first due a day after each restart would never run.
FIRST_RUN_WITHIN = 60.0


def jobs_from(schedule: Mapping[str, Mapping[str, Any]], *, now: float) -> list[Job]:
    """The beat schedule's entries as jobs, each first due one interval after `now`, or
    FIRST_RUN_WITHIN seconds when that is sooner. Intervals only: a crontab entry would need
    beat's own scheduler."""
    jobs = []
    for name, entry in schedule.items():
        every = entry["schedule"]
        if isinstance(every, timedelta):
            every = every.total_seconds()
        if not isinstance(every, int | float) or every <= 0:
            raise TypeError(f"Periodic entry {name}: the embedded scheduler runs intervals only.")
        jobs.append(
            Job(
                name=name,
                task=entry["task"],
                every=float(every),
                due_at=now + min(every, FIRST_RUN_WITHIN),
                args=tuple(entry.get("args", ())),
                kwargs=dict(entry.get("kwargs", {})),
            )
        )
    return jobs


def run_in_process(job: Job) -> None:
    """Run the job's task here and now, as an eager task: its own failure is logged, never
    raised (the next run tries again, as a worker's would)."""
    close_old_connections()
    try:
        result = app.tasks[job.task].apply(args=job.args, kwargs=job.kwargs)
        if result.failed():
            logger.error("Periodic job %s failed: %r", job.name, result.result)
    except Exception:
        logger.exception("Periodic job %s failed", job.name)
    finally:
        close_old_connections()


class EmbeddedScheduler(threading.Thread):
    """A daemon thread running due jobs one after the other; `stop()` ends it."""

    def __init__(
        self,
        schedule: Mapping[str, Mapping[str, Any]],
        *,
        run_job: Callable[[Job], None] = run_in_process,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(name="embedded-scheduler", daemon=True)
        self._run_job = run_job
        self._clock = clock
        self._stopped = threading.Event()
        self.jobs = jobs_from(schedule, now=clock())

    def run_due(self) -> float:
        """Run every job that is due; return the seconds until the next one is."""
        for job in self.jobs:
            if job.due_at <= self._clock():
                # The next run counts from now: a slow job is not run again at once.
                job.due_at = self._clock() + job.every
                self._run_job(job)
        if not self.jobs:
            return 60.0
        return max(0.0, min(job.due_at for job in self.jobs) - self._clock())

    def run(self) -> None:
        while not self._stopped.wait(self.run_due()):
            pass

    def stop(self) -> None:
        self._stopped.set()


_lock = threading.Lock()
_started: EmbeddedScheduler | None = None


def start_embedded_scheduler() -> EmbeddedScheduler | None:
    """Start this process's scheduler when EMBEDDED_SCHEDULER is on (the embedded default:
    no broker, not under tests); a second call answers the same thread. None when off."""
    global _started
    if not settings.EMBEDDED_SCHEDULER:
        return None
    with _lock:
        if _started is None:
            import_task_modules()
            _started = EmbeddedScheduler(settings.CELERY_BEAT_SCHEDULE)
            _started.start()
            logger.info(
                "No broker: this process runs the %d periodic jobs itself (%s).",
                len(_started.jobs),
                ", ".join(job.name for job in _started.jobs),
            )
        return _started
