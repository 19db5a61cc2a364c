"""Two devices syncing overlapping batches at the same moment, on real connections."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Sum
from django.utils import timezone

from accounts.tests.factories import UserFactory
from lessons.tests.factories import LessonFactory, QuestFactory
from progress import services
from progress.models import LearnerStats, LessonCompletion, XPAward


def run_in_parallel(*calls) -> list[BaseException]:
    """Run each call in its own thread (its own DB connection), all released at once."""
    barrier = threading.Barrier(len(calls))
    errors: list[BaseException] = []

    def run(call):
        try:
            barrier.wait(timeout=10)
            call()
        except BaseException as exc:  # reported to the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


@pytest.mark.django_db(transaction=True)
def test_parallel_syncs_of_overlapping_batches_complete_and_pay_each_lesson_once():
    user = UserFactory()
    lessons = LessonFactory.create_batch(30, quest=QuestFactory(), xp=25)
    at = timezone.now() - timedelta(hours=1)

    def batch(chosen):
        return [
            {
                "id": str(uuid.uuid4()),
                "type": "lesson_completed",
                "lesson": lesson.slug,
                "occurred_at": at.isoformat(),
            }
            for lesson in chosen
        ]

    phone, tablet = batch(lessons[:20]), batch(lessons[10:])

    for _ in range(3):
        errors = run_in_parallel(
            lambda: services.sync_progress(user=user, device_id="phone", events=phone),
            lambda: services.sync_progress(user=user, device_id="tablet", events=tablet),
        )
        assert errors == []

    assert LessonCompletion.objects.filter(user=user).count() == 30
    lesson_awards = XPAward.objects.filter(user=user, source_type="lesson")
    assert lesson_awards.count() == 30
    assert set(lesson_awards.values_list("source_id", flat=True)) == {x.id for x in lessons}
    ledger = XPAward.objects.filter(user=user).aggregate(total=Sum("amount"))["total"]
    assert LearnerStats.objects.get(pk=user.pk).xp_total == ledger


@pytest.mark.django_db(transaction=True)
def test_parallel_awards_of_one_source_pay_once():
    user = UserFactory()

    def award():
        services.award_xp(
            awards=[services.Award(user_id=user.id, source_type="exercise", source_id=1, amount=50)]
        )

    errors = run_in_parallel(*[award] * 4)

    assert errors == []
    assert XPAward.objects.filter(user=user).count() == 1
    assert LearnerStats.objects.get(pk=user.pk).xp_total == 50
