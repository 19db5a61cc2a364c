from celery import Task, shared_task

from achievements import services
from learning_platform.tasks import DB_RETRY


@shared_task(bind=True, name="achievements.award_retroactively", **DB_RETRY)
def award_retroactively(
    self: Task[..., None],
    achievement_id: int,
    after_user_id: int = 0,
    batch_size: int = services.RETROACTIVE_BATCH_SIZE,
) -> None:
    """Award one achievement to every learner who already qualifies, one batch per task.

    Each run handles the next `batch_size` learners by id and enqueues the following batch
    (on the queue this one came from), so no run comes near the time limit however many
    learners there are. Idempotent: a retried or repeated batch unlocks nothing twice.
    """
    next_after = services.award_achievement_to_batch(
        achievement_id=achievement_id, after_user_id=after_user_id, batch_size=batch_size
    )
    if next_after is not None:
        queue = (self.request.delivery_info or {}).get("routing_key")
        award_retroactively.apply_async(
            (achievement_id, next_after, batch_size),
            # celery-types says str; None is Celery's own "the default queue".
            queue=queue or None,  # type: ignore[arg-type]
        )


@shared_task(name="achievements.evaluate_for_user", **DB_RETRY)
def evaluate_for_user(user_id: int, trigger: str | None = None) -> None:
    """Unlock what the learner now qualifies for, off the request path. Idempotent."""
    services.evaluate_achievements(user_id=user_id, trigger=trigger)
