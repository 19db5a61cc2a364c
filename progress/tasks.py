from celery import shared_task

from progress import boards
from progress.services import reminders


@shared_task(name="progress.rebuild_leaderboards", ignore_result=True)
def rebuild_leaderboards() -> None:
    """Rewrite the Redis leaderboards from the ledger's rollup. Idempotent."""
    if boards.enabled():
        boards.rebuild()


@shared_task(name="progress.refresh_leaderboards", ignore_result=True)
def refresh_leaderboards() -> None:
    """Rebuild the boards when Redis lost them or missed updates; else build today's and
    tomorrow's period boards where missing. Idempotent."""
    if boards.enabled():
        boards.refresh()


@shared_task(name="progress.send_due_reminders", ignore_result=True)
def send_due_reminders() -> None:
    """The daily reminders due by now, a batch at a time until none is left. Idempotent."""
    while reminders.send_due_reminders() == reminders.BATCH_SIZE:
        pass
