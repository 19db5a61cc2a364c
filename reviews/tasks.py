from celery import shared_task
from django.conf import settings

from learning_platform import broker
from learning_platform.tasks import DB_RETRY
from reviews import fitting, selectors, services

# A retry's wait and a run under the time the broker lets a worker hold a message (Redis's
# visibility timeout: 180 s by default, so 115 s), so a fit is never handed out twice while it
# runs, and never past the project's own task limit (which RabbitMQ's consumer timeout is
# checked against). The optimizer fits a million reviews in about 5 s on a 2-core host.
_TIME_LIMIT = max(
    2,
    min(
        settings.CELERY_TASK_TIME_LIMIT,
        broker.ack_timeout() - settings.CELERY_RETRY_BACKOFF_MAX - 5,
    ),
)


@shared_task(name="reviews.fit_parameters", ignore_result=True)
def fit_parameters() -> None:
    """Periodic: a fit for each quest with enough review logs, and more than at its last fit
    (one task per quest). Idempotent: a fit repeated on the same logs fits the same."""
    for quest_id in selectors.quests_to_fit(min_reviews=fitting.MIN_REVIEWS):
        # celery-types types a shared_task as Celery's Task; the app's is a DjangoTask.
        fit_quest_parameters.delay_on_commit(quest_id)  # type: ignore[attr-defined]


@shared_task(
    name="reviews.fit_quest_parameters",
    ignore_result=True,
    soft_time_limit=max(1, _TIME_LIMIT - 5),
    time_limit=_TIME_LIMIT,
    **DB_RETRY,
)
def fit_quest_parameters(quest_id: int) -> None:
    """Fit FSRS parameters to the quest's review logs; kept, and used only when they beat the
    defaults on the held-out logs."""
    services.fit_quest_parameters(quest_id=quest_id)
