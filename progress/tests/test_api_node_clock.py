"""A web node whose wall clock runs ahead of the database's (issue 44): what a learner does
through it counts on the day the database's clock says. time-machine moves only the node's
clock; the database's is this machine's real one."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine

from learning_platform import clock
from lessons.tests.factories import LessonFactory
from progress.models import ActivityDay, LessonCompletion, XPAward

pytestmark = pytest.mark.django_db

COMPLETE = "/api/v1/lessons/{}/complete"
PROGRESS = "/api/v1/me/progress"


@pytest.fixture
def learner_near_noon(user):
    """The learner in the zone where it is now 11:00-12:59, so that their midnight is hours
    away, whenever the suite runs: the node is set just past it."""
    real = datetime.now(UTC)
    hours_east = 11 - real.hour if real.hour <= 11 else 11 - real.hour + 24
    if hours_east > 14:
        hours_east -= 24
    # Etc/GMT zones are named with the sign reversed (POSIX): Etc/GMT-3 is UTC+3.
    user.time_zone = "UTC" if hours_east == 0 else f"Etc/GMT{-hours_east:+d}"
    user.save()
    zone = timedelta(hours=hours_east)
    local_today = (real + zone).date()
    node_time = datetime.combine(local_today + timedelta(days=1), time(0, 5), UTC) - zone
    return user, local_today, node_time


def test_a_completion_through_a_node_past_midnight_counts_on_the_databases_day(
    database_clock, user_client, learner_near_noon
):
    user, local_today, node_time = learner_near_noon
    lesson = LessonFactory(xp=40)

    with time_machine.travel(node_time, tick=True):
        clock.forget()  # the node's clock was off from its start, not since the fixtures
        response = user_client.post(COMPLETE.format(lesson.slug))
        progress = user_client.get(PROGRESS).json()

    assert response.status_code == 201
    assert list(ActivityDay.objects.filter(user=user).values_list("day", flat=True)) == [
        local_today
    ]
    assert progress["daily_goal"]["xp_today"] == progress["xp"] >= 40
    assert progress["streak"]["current"] == 1


def test_a_completion_through_a_node_ahead_is_stamped_with_the_databases_time(
    database_clock, user_client, learner_near_noon
):
    user, _, node_time = learner_near_noon
    lesson = LessonFactory(xp=40)
    real = datetime.now(UTC)

    with time_machine.travel(node_time, tick=True):
        clock.forget()
        user_client.post(COMPLETE.format(lesson.slug))

    completed_at = LessonCompletion.objects.get(user=user).completed_at
    awarded_at = XPAward.objects.get(user=user, source_type="lesson").awarded_at
    assert abs((completed_at - real).total_seconds()) < 5
    assert abs((awarded_at - real).total_seconds()) < 5


def test_without_the_database_clock_a_node_ahead_moves_the_learners_day(
    settings, user_client, learner_near_noon
):
    # What issue 44 saw, kept as the reason for CLOCK_FROM_DATABASE's default.
    settings.CLOCK_FROM_DATABASE = False
    user, local_today, node_time = learner_near_noon
    lesson = LessonFactory(xp=40)

    with time_machine.travel(node_time, tick=True):
        user_client.post(COMPLETE.format(lesson.slug))

    day: date = ActivityDay.objects.get(user=user).day
    assert day == local_today + timedelta(days=1)
