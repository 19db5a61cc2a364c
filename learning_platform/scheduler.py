"""Periodic jobs without `celery beat`, for the embedded default: Celery's own beat, in a thread.

With no broker (`make run`: tasks run in-process) nobody runs `celery beat`, so the jobs of
CELERY_BEAT_SCHEDULE (reply digests, the outbox sweep, the submission sweep, the boards) would
never run. The development server starts, in each serving process
(`learning_platform/devserver`: its `runserver`), the thread `celery worker -B` embeds:
`celery.beat.EmbeddedService`, on the same schedule, crontab entries included. Beat publishes a
due task as usual; with no broker every task is eager (CELERY_TASK_ALWAYS_EAGER), so it runs
there and then, in that thread, between fresh database connections.

Beat keeps each entry's last run in its shelve file (`SCHEDULE_FILE`, beside `db.sqlite3`,
ignored by git), so a reload of the development server neither runs every job again nor pushes
a daily job back by a day.

It replaced a loop of ours (intervals only, every job first due within a minute of each start);
APScheduler was weighed before and left out: it would be a second scheduler reading Celery's
schedule format, where beat is already installed and reads it natively.

Off under tests and whenever a broker is configured: then `make beat` runs the schedule,
exactly one per deployment. `EMBEDDED_SCHEDULER` turns it on or off explicitly.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery.beat import EmbeddedService, PersistentScheduler
from django.conf import settings
from django.db import close_old_connections

from learning_platform.celery import app, import_task_modules

logger = logging.getLogger(__name__)

SCHEDULE_FILE = settings.BASE_DIR / "celerybeat-schedule-embedded"


class InProcessScheduler(PersistentScheduler):
    """Beat's scheduler, whose due tasks run in this thread (eager): each between fresh
    database connections, as a worker's would be (a connection the database dropped while the
    thread slept is not reused)."""

    def apply_async(self, *args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        try:
            return super().apply_async(*args, **kwargs)
        finally:
            close_old_connections()


_lock = threading.Lock()
_started: Any = None  # the EmbeddedService thread (celery-types type it loosely)


def start_embedded_scheduler() -> Any:
    """Start this process's beat thread when EMBEDDED_SCHEDULER is on (the embedded default:
    no broker, not under tests); a second call answers the same thread. None when off."""
    global _started
    if not settings.EMBEDDED_SCHEDULER:
        return None
    with _lock:
        if _started is None:
            import_task_modules()
            _started = EmbeddedService(
                # celery-types type the app by Celery's Task class; ours is a subclass of it.
                app,  # type: ignore[arg-type]
                thread=True,
                scheduler_cls=InProcessScheduler,
                schedule_filename=str(SCHEDULE_FILE),
            )
            _started.start()
            logger.info(
                "No broker: this process runs the %d periodic jobs itself (%s).",
                len(settings.CELERY_BEAT_SCHEDULE),
                ", ".join(settings.CELERY_BEAT_SCHEDULE),
            )
        return _started
