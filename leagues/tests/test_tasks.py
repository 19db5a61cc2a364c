from datetime import UTC, datetime

import time_machine
from django.conf import settings

from leagues import tasks
from leagues.models import Cohort
from leagues.tests.factories import CohortFactory, MembershipFactory


def test_the_close_runs_every_minute_on_beat():
    job = settings.CELERY_BEAT_SCHEDULE["leagues.close_ended_weeks"]

    assert job["schedule"].total_seconds() == 60


def test_the_task_closes_the_cohorts_whose_week_ended_and_leaves_the_others(db):
    ended = MembershipFactory(cohort=CohortFactory()).cohort
    later = MembershipFactory(
        cohort=CohortFactory(ends_at=datetime(2026, 3, 16, 8, tzinfo=UTC))
    ).cohort

    with time_machine.travel(datetime(2026, 3, 16, 1, tzinfo=UTC), tick=False):
        tasks.close_ended_weeks()

    closed = set(Cohort.objects.filter(closed_at__isnull=False).values_list("pk", flat=True))
    assert closed == {ended.pk}
    assert later.pk not in closed
