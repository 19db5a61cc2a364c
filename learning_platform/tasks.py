from celery import shared_task

from learning_platform import outbox


@shared_task(name="learning_platform.send_unsent_tasks", acks_late=True)
def send_unsent_tasks() -> int:
    """Periodic: publish the tasks kept in the database while the broker was unreachable."""
    return outbox.send_unsent_tasks()
