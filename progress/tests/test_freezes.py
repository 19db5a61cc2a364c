"""Streaks that forgive: freezes earned by runs and used on missed days, and days of a platform
outage, which never break a run."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.db import IntegrityError
from hypothesis import given
from hypothesis import strategies as st

from lessons.tests.factories import LessonFactory, QuestFactory
from progress.models import FrozenDay, LearnerStats, PlatformOutage
from progress.streaks import FREEZE_EVERY, MAX_FREEZES, Run, extend_run

PROGRESS = "/api/v1/me/progress"
CALENDAR = "/api/v1/me/calendar"
COMPLETE = "/api/v1/lessons/{}/complete"
DAY_1 = date(2026, 3, 2)


def _days(*offsets: int) -> list[date]:
    return [DAY_1 + timedelta(days=n) for n in offsets]


# --- The rule -------------------------------------------------------------------------------


def test_a_run_earns_a_freeze_every_seven_days_and_holds_at_most_two():
    assert extend_run(_days(*range(7)), previous=None, run=Run()).freezes == 1
    assert extend_run(_days(*range(14)), previous=None, run=Run()).freezes == 2
    assert extend_run(_days(*range(28)), previous=None, run=Run()).freezes == MAX_FREEZES


def test_a_missed_day_uses_a_freeze_held_and_the_run_goes_on():
    run = extend_run(_days(2), previous=DAY_1, run=Run(current=5, best=5, freezes=1))

    assert (run.current, run.freezes, run.frozen) == (6, 0, _days(1))


def test_a_gap_longer_than_the_freezes_held_breaks_the_run_and_keeps_them():
    run = extend_run(_days(3), previous=DAY_1, run=Run(current=5, best=5, freezes=1))

    assert (run.current, run.best, run.freezes, run.frozen) == (1, 5, 1, [])


def test_an_outage_day_forgives_without_a_freeze():
    run = extend_run(_days(2), previous=DAY_1, run=Run(current=5, best=5), forgiven=_days(1))

    assert (run.current, run.freezes, run.frozen) == (6, 0, [])


@given(
    gaps=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=40),
    freezes=st.integers(min_value=0, max_value=MAX_FREEZES),
)
def test_freezes_stay_within_bounds_and_forgive_only_missed_days(gaps, freezes):
    days, day = [], DAY_1
    for gap in gaps:
        day += timedelta(days=gap)
        days.append(day)

    run = extend_run(days, previous=DAY_1, run=Run(current=1, best=1, freezes=freezes))

    assert 0 <= run.freezes <= MAX_FREEZES
    assert not set(run.frozen) & set(days)
    assert len(run.frozen) == len(set(run.frozen))
    assert 1 <= run.current <= run.best <= len(days) + 1
    # Every missed day is either forgiven by a freeze or where the run restarted.
    earned = (len(days) + 1) // FREEZE_EVERY
    assert len(run.frozen) <= freezes + earned


# --- Through the API --------------------------------------------------------------------------


@pytest.fixture
def lessons(db):
    quest = QuestFactory(slug=settings.DEMO_QUEST_SLUG)
    return LessonFactory.create_batch(40, quest=quest, xp=10)


def _complete_on(client, lesson, day: date) -> None:
    with time_machine.travel(datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=12)):
        assert client.post(COMPLETE.format(lesson.slug)).status_code == 201


def _streak_on(client, day: date) -> dict:
    at = datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=9)
    with time_machine.travel(at, tick=False):
        return client.get(PROGRESS).json()["streak"]


@pytest.mark.django_db
def test_a_missed_day_with_a_freeze_held_keeps_the_streak(user_client, user, lessons):
    for n in range(7):
        _complete_on(user_client, lessons[n], DAY_1 + timedelta(days=n))
    assert _streak_on(user_client, DAY_1 + timedelta(days=7))["freezes"] == 1

    # Day 8 (index 7) missed: the next morning the run stands by the freeze.
    assert _streak_on(user_client, DAY_1 + timedelta(days=8)) == {
        "current": 7,
        "best": 7,
        "today": "frozen",
        "freezes": 1,
    }
    _complete_on(user_client, lessons[8], DAY_1 + timedelta(days=8))

    assert _streak_on(user_client, DAY_1 + timedelta(days=8)) == {
        "current": 8,
        "best": 8,
        "today": "done",
        "freezes": 0,
    }
    assert list(FrozenDay.objects.filter(user=user).values_list("day", flat=True)) == [
        DAY_1 + timedelta(days=7)
    ]
    with time_machine.travel(datetime(2026, 3, 10, 12, tzinfo=UTC), tick=False):
        frozen = [d for d in user_client.get(CALENDAR).json()["days"] if d["frozen"]]
    assert frozen == [{"day": "2026-03-09", "xp": 0, "goal_met": False, "frozen": True}]


@pytest.mark.django_db
def test_a_missed_day_without_a_freeze_breaks_the_streak(user_client, lessons):
    for n in range(3):
        _complete_on(user_client, lessons[n], DAY_1 + timedelta(days=n))

    assert _streak_on(user_client, DAY_1 + timedelta(days=4))["today"] == "none"
    _complete_on(user_client, lessons[3], DAY_1 + timedelta(days=4))
    assert _streak_on(user_client, DAY_1 + timedelta(days=4))["current"] == 1


@pytest.mark.django_db
def test_a_day_of_platform_outage_never_breaks_a_streak(user_client, user, lessons):
    for n in range(3):
        _complete_on(user_client, lessons[n], DAY_1 + timedelta(days=n))
    PlatformOutage.objects.create(
        starts_at=datetime(2026, 3, 5, 8, tzinfo=UTC),
        ends_at=datetime(2026, 3, 5, 9, tzinfo=UTC),
        reason="Database failover",
    )

    assert _streak_on(user_client, DAY_1 + timedelta(days=4))["today"] == "to_do"
    _complete_on(user_client, lessons[3], DAY_1 + timedelta(days=4))

    assert _streak_on(user_client, DAY_1 + timedelta(days=4))["current"] == 4
    assert not FrozenDay.objects.filter(user=user).exists()


@pytest.mark.django_db
def test_the_database_holds_at_most_two_freezes_and_one_use_per_day(user):
    FrozenDay.objects.create(user=user, day=DAY_1)
    with pytest.raises(IntegrityError):
        FrozenDay.objects.create(user=user, day=DAY_1)


@pytest.mark.django_db
def test_the_database_refuses_a_third_freeze(user):
    with pytest.raises(IntegrityError):
        LearnerStats.objects.create(user=user, freezes_held=MAX_FREEZES + 1)


@pytest.mark.django_db
def test_operators_record_an_outage_in_the_admin(admin_client):
    response = admin_client.post(
        "/admin/progress/platformoutage/add/",
        {
            "starts_at_0": "2026-03-05",
            "starts_at_1": "08:00:00",
            "ends_at_0": "2026-03-05",
            "ends_at_1": "09:30:00",
            "reason": "Database failover",
        },
    )

    assert response.status_code == 302, response.content
    assert PlatformOutage.objects.get().reason == "Database failover"
    assert admin_client.get("/admin/progress/platformoutage/").status_code == 200


@pytest.mark.django_db
def test_standings_of_many_learners_with_missed_days_read_the_outages_once(
    django_assert_num_queries,
):
    from accounts.tests.factories import UserFactory
    from progress import selectors

    users = UserFactory.create_batch(5)
    LearnerStats.objects.bulk_create(
        LearnerStats(user=u, streak_current=3, streak_best=3, last_active_day=DAY_1) for u in users
    )

    with (
        time_machine.travel(datetime(2026, 3, 6, 12, tzinfo=UTC), tick=False),
        django_assert_num_queries(2),  # the stats rows, the outages
    ):
        standings = selectors.standings_for_users(user_ids=[u.pk for u in users])

    assert {s["streak"]["today"] for s in standings.values()} == {"none"}
