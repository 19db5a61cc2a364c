"""The periodic jobs: CELERY_BEAT_SCHEDULE (settings.py names it), run by `celery beat` or,
without a broker, by the development server itself (EMBEDDED_SCHEDULER).

The kernel names no app elsewhere; as in settings.py, the schedule names the apps' tasks by
their registered names.
"""

from datetime import timedelta
from typing import Any


def _every(task: str, seconds: float, expires: int) -> dict[str, Any]:
    """A periodic job: the task's registered name, how often, and when a late run is dropped."""
    return {"task": task, "schedule": timedelta(seconds=seconds), "options": {"expires": expires}}


BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    job["task"]: job
    for job in (
        # Lessons whose "publish at" has come (reads already show them; this makes it stick).
        _every("lessons.publish_due_lessons", 60, expires=55),
        _every("learning_platform.send_unsent_tasks", 30, expires=25),
        # Deletes from Redis the keys of cache writes that missed it (learning_platform/cache.py).
        _every("learning_platform.settle_cache", 30, expires=25),
        # Rebuilds the boards when Redis lost them or missed awards (within a minute of its
        # return), and builds each day's period boards ahead of midnight.
        _every("progress.refresh_leaderboards", 30, expires=25),
        # Rewrites every board from the ledger's rollup: anything Redis missed is back in a day.
        _every("progress.rebuild_leaderboards", 24 * 3600, expires=3600),
        # Sends the notification digests that are due (COMMUNITY_DIGEST_WINDOW_SECONDS).
        _every("community.send_overdue_emails", 60, expires=55),
        _every("exercises.requeue_stale_submissions", 60, expires=55),
        _every("reviews.fit_parameters", 24 * 3600, expires=3600),  # FSRS fits (reviews/fitting.py)
        # Deletes the accounts whose grace period ran out (accounts.services.deletion).
        _every("accounts.purge_deleted_accounts", 3600, expires=3000),
        _every("xapi.send_statements", 60, expires=55),  # what an LRS outage left unsent (xapi/)
        _every("progress.send_due_reminders", 60, expires=55),  # progress/services/reminders.py
        # Closes the league cohorts whose week has ended in all their members' zones.
        _every("leagues.close_ended_weeks", 60, expires=55),
    )
}
