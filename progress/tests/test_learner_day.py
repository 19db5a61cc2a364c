"""One clock: each award stores the learner's day it counts on, decided when it is paid
(progress.streaks.day_of_activity); the streak, the daily goal and the calendar read that day."""

import importlib
from datetime import UTC, date, datetime
from types import SimpleNamespace

import pytest
import time_machine
from django.apps import apps
from django.db import connection

from progress.models import ActivityDay, XPAward

pytestmark = pytest.mark.django_db

PROGRESS = "/api/v1/me/progress"
CALENDAR = "/api/v1/me/calendar"
COMPLETE = "/api/v1/lessons/{}/complete"


def _complete_at(client, lesson, at: datetime) -> None:
    with time_machine.travel(at, tick=False):
        assert client.post(COMPLETE.format(lesson.slug)).status_code == 201


def _read_at(client, at: datetime) -> tuple[dict, dict]:
    with time_machine.travel(at, tick=False):
        return client.get(PROGRESS).json(), client.get(CALENDAR).json()


def _move(user, zone: str) -> None:
    user.time_zone = zone
    user.save(update_fields=["time_zone"])


def test_a_completion_at_23_51_local_counts_today(user_client, user, lessons):
    _move(user, "Europe/Paris")
    user_client.put("/api/v1/me/daily-goal", {"xp": 20}, format="json")

    _complete_at(user_client, lessons[0], datetime(2026, 3, 10, 22, 51, tzinfo=UTC))  # 23:51

    progress, calendar = _read_at(user_client, datetime(2026, 3, 10, 22, 59, tzinfo=UTC))
    assert progress["streak"] == {"current": 1, "best": 1, "today": "done", "freezes": 0}
    assert progress["daily_goal"] == {"xp": 20, "xp_today": 20, "met": True, "chosen": True}
    assert calendar["last_day"] == "2026-03-10"
    assert calendar["days"] == [{"day": "2026-03-10", "xp": 20, "goal_met": True, "frozen": False}]
    assert set(XPAward.objects.filter(user=user).values_list("day", flat=True)) == {
        date(2026, 3, 10)
    }
    # Past their midnight the day is over: nothing today yet, the run still to carry on.
    progress, _ = _read_at(user_client, datetime(2026, 3, 10, 23, 1, tzinfo=UTC))
    assert progress["streak"]["today"] == "to_do"
    assert progress["daily_goal"]["xp_today"] == 0


def test_a_learner_who_moves_zone_keeps_the_day_each_award_was_made_in(user_client, user, lessons):
    # given a day in UTC
    _complete_at(user_client, lessons[0], datetime(2026, 3, 10, 20, tzinfo=UTC))
    # when they fly to UTC+14, where it is already the 11th: an hour later is still the 10th
    # (a day a real day long), the next morning UTC is their 11th
    _move(user, "Pacific/Kiritimati")
    _complete_at(user_client, lessons[1], datetime(2026, 3, 10, 21, tzinfo=UTC))
    _complete_at(user_client, lessons[2], datetime(2026, 3, 11, 1, tzinfo=UTC))
    # and then on to UTC-12, where it is the 10th again
    _move(user, "Etc/GMT+12")

    # then every award stays on the day it was paid on, and today is their last active day
    progress, calendar = _read_at(user_client, datetime(2026, 3, 11, 2, tzinfo=UTC))
    assert calendar["last_day"] == "2026-03-11"
    assert calendar["days"] == [
        {"day": "2026-03-10", "xp": 30, "goal_met": False, "frozen": False},
        {"day": "2026-03-11", "xp": 10, "goal_met": False, "frozen": False},
    ]
    assert progress["streak"] == {"current": 2, "best": 2, "today": "done", "freezes": 0}
    assert progress["daily_goal"]["xp_today"] == 10
    by_lesson = dict(
        XPAward.objects.filter(user=user, source_type="lesson").values_list("source_id", "day")
    )
    assert by_lesson == {
        lessons[0].pk: date(2026, 3, 10),
        lessons[1].pk: date(2026, 3, 10),
        lessons[2].pk: date(2026, 3, 11),
    }
    assert sorted(ActivityDay.objects.filter(user=user).values_list("day", flat=True)) == [
        date(2026, 3, 10),
        date(2026, 3, 11),
    ]


def test_offline_history_counts_on_its_own_day_in_the_calendar_not_the_streak(
    user_client, user, lessons
):
    # A lesson done offline three days before it is synced: its XP shows on its day, the
    # streak counts only days the server witnessed (STREAK_WITNESS_WINDOW).
    _move(user, "America/New_York")
    user.date_joined = datetime(2026, 1, 5, tzinfo=UTC)
    user.save(update_fields=["date_joined"])
    with time_machine.travel(datetime(2026, 3, 12, 15, tzinfo=UTC), tick=False):
        response = user_client.post(
            "/api/v1/me/progress/sync",
            {
                "device_id": "phone",
                "events": [
                    {
                        "id": "6f1c2e9a-2b5d-4c1e-9a7b-3d2f1e0c9b8a",
                        "type": "lesson_completed",
                        "lesson": lessons[0].slug,
                        "occurred_at": "2026-03-09T03:30:00Z",  # 23:30 on the 8th there
                    }
                ],
            },
            format="json",
        )
        assert response.status_code == 200, response.content
        assert response.json()["rejected"] == []
        calendar = user_client.get(CALENDAR).json()

    assert XPAward.objects.get(user=user, source_type="lesson").day == date(2026, 3, 8)
    assert {"day": "2026-03-08", "xp": 10, "goal_met": False, "frozen": False} in calendar["days"]
    assert not ActivityDay.objects.filter(user=user, day=date(2026, 3, 8)).exists()


def test_the_backfill_puts_old_awards_on_their_date_in_the_learners_zone(user):
    from progress import services

    backfill = importlib.import_module("progress.migrations.0017_backfill_xpaward_day")
    _move(user, "Pacific/Kiritimati")
    services.award_xp(
        awards=[
            services.Award(user.id, "exercise", 1, 5, datetime(2026, 3, 1, 9, 59, tzinfo=UTC)),
            services.Award(user.id, "exercise", 2, 5, datetime(2026, 3, 1, 10, 0, tzinfo=UTC)),
        ]
    )
    XPAward.objects.update(day=None)  # as before the column existed

    backfill.backfill(apps, SimpleNamespace(connection=connection))

    assert sorted(XPAward.objects.values_list("source_id", "day")) == [
        (1, date(2026, 3, 1)),
        (2, date(2026, 3, 2)),
    ]
