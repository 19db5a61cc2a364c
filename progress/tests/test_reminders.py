"""Daily reminders on the learner's clock (progress/services/reminders.py), set through the
profile API and sent by the beat task; time moved with time-machine (the one clock reads it)."""

from datetime import UTC, date, datetime, time

import pytest
import time_machine
from django.core import mail

from accounts.models import User
from notifications import push
from notifications.models import Notification
from notifications.tests.push_service import PushService
from progress import tasks
from progress.models import LearnerStats

pytestmark = pytest.mark.django_db

# Asia/Bangkok is UTC+7 all year: 21:00 there is 14:00 UTC.
BANGKOK_2100 = datetime(2026, 12, 10, 14, 0, tzinfo=UTC)
TODAY = date(2026, 12, 10)
YESTERDAY = date(2026, 12, 9)


def _reminded(user) -> list[str]:
    return list(
        Notification.objects.filter(recipient=user, kind="reminder").values_list("title", flat=True)
    )


@pytest.fixture
def learner(user_client, user):
    """A learner in Bangkok with a 12-day streak, last active yesterday, who asked at 09:00
    for a reminder at 21:00."""
    user.time_zone = "Asia/Bangkok"
    user.save()
    LearnerStats.objects.create(
        user=user,
        xp_total=600,
        streak_current=12,
        streak_best=12,
        last_active_day=YESTERDAY,
        last_active_day_start=datetime(2026, 12, 8, 17, 0, tzinfo=UTC),
    )
    with time_machine.travel(datetime(2026, 12, 10, 2, 0, tzinfo=UTC), tick=False):
        response = user_client.patch("/api/v1/me/", {"reminder_time": "21:00"}, format="json")
    assert response.status_code == 200
    return User.objects.get(pk=user.pk)


def _run_at(moment: datetime) -> None:
    with time_machine.travel(moment, tick=False):
        tasks.send_due_reminders()


def test_the_profile_takes_a_reminder_time_and_schedules_it_in_the_learners_zone(learner):
    assert learner.reminder_time == time(21, 0)
    assert learner.reminder_due_at == BANGKOK_2100


def test_a_reminder_time_not_as_hh_mm_is_a_400_naming_the_field(user_client):
    response = user_client.patch("/api/v1/me/", {"reminder_time": "9pm"}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"]["reminder_time"] == ["Give the time as HH:MM, e.g. 19:30."]


def test_the_profile_answers_the_reminder_time_and_null_turns_it_off(user_client, learner):
    assert user_client.get("/api/v1/me/").json()["reminder_time"] == "21:00"

    user_client.patch("/api/v1/me/", {"reminder_time": None}, format="json")

    learner.refresh_from_db()
    assert (learner.reminder_time, learner.reminder_due_at) == (None, None)


def test_nothing_is_sent_before_the_learners_time(learner):
    _run_at(BANGKOK_2100.replace(hour=13, minute=59))  # 20:59 in Bangkok

    assert _reminded(learner) == []
    assert mail.outbox == []


def test_at_their_time_a_learner_with_a_streak_to_keep_is_reminded_in_app_and_by_email(learner):
    _run_at(BANGKOK_2100.replace(minute=1))

    assert _reminded(learner) == ["2 hours left to keep your 12-day streak"]
    [email] = mail.outbox
    assert email.to == [learner.email]
    assert email.subject == "2 hours left to keep your 12-day streak"
    assert email.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    learner.refresh_from_db()
    assert learner.reminder_due_at == datetime(2026, 12, 11, 14, 0, tzinfo=UTC)


def test_a_learner_who_allowed_push_on_a_device_gets_the_reminder_there_once(
    learner, settings, django_capture_on_commit_callbacks
):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = "jmqJmK-wxvYXP3UcYVM4JnH5NwIXpWv8hd2yrytrjOw"
    service = PushService()
    try:
        phone = service.browser("phone")
        push.save_subscription(
            user_id=learner.pk, endpoint=phone.endpoint, p256dh=phone.p256dh, auth=phone.auth
        )
        with django_capture_on_commit_callbacks(execute=True):
            _run_at(BANGKOK_2100.replace(minute=1))
        User.objects.filter(pk=learner.pk).update(reminder_due_at=BANGKOK_2100)
        with django_capture_on_commit_callbacks(execute=True):
            _run_at(BANGKOK_2100.replace(minute=2))

        [pushed] = service.pushed
        assert phone.read(pushed)["title"] == "2 hours left to keep your 12-day streak"
    finally:
        service.close()


def test_a_reminder_is_sent_once_a_day_even_when_the_run_repeats(learner):
    _run_at(BANGKOK_2100.replace(minute=1))
    User.objects.filter(pk=learner.pk).update(reminder_due_at=BANGKOK_2100)  # as if not moved

    _run_at(BANGKOK_2100.replace(minute=2))

    assert len(_reminded(learner)) == 1
    assert len(mail.outbox) == 1


def test_a_learner_who_kept_the_streak_today_and_has_no_goal_is_not_reminded(learner):
    LearnerStats.objects.filter(user=learner).update(
        last_active_day=TODAY, last_active_day_start=datetime(2026, 12, 9, 17, 0, tzinfo=UTC)
    )

    _run_at(BANGKOK_2100.replace(minute=1))

    assert _reminded(learner) == []
    learner.refresh_from_db()
    assert learner.reminder_due_at == datetime(2026, 12, 11, 14, 0, tzinfo=UTC)


def test_a_streak_kept_but_a_goal_not_met_is_reminded_of_the_xp_to_go(learner):
    LearnerStats.objects.filter(user=learner).update(
        last_active_day=TODAY,
        last_active_day_start=datetime(2026, 12, 9, 17, 0, tzinfo=UTC),
        daily_goal=30,
        daily_goal_chosen=True,
        day_xp=10,
    )

    _run_at(BANGKOK_2100.replace(minute=1))

    assert _reminded(learner) == ["20 XP to go to today's goal of 30 XP"]


def test_a_learner_who_takes_no_emails_is_reminded_in_the_app_only(learner):
    User.objects.filter(pk=learner.pk).update(email_notifications=False)

    _run_at(BANGKOK_2100.replace(minute=1))

    assert len(_reminded(learner)) == 1
    assert mail.outbox == []


def test_a_reminder_found_hours_late_is_skipped_and_the_next_one_scheduled(learner):
    _run_at(BANGKOK_2100.replace(hour=16))  # 23:00 in Bangkok, two hours late

    assert _reminded(learner) == []
    learner.refresh_from_db()
    assert learner.reminder_due_at == datetime(2026, 12, 11, 14, 0, tzinfo=UTC)


def test_the_emails_one_click_unsubscribe_stops_the_reminders_only(client, learner):
    _run_at(BANGKOK_2100.replace(minute=1))
    link = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")

    response = client.post(link, {"List-Unsubscribe": "One-Click"})

    assert response.status_code == 200
    assert response.json()["scope"] == "reminders"
    learner.refresh_from_db()
    assert (learner.reminder_time, learner.reminder_due_at) == (None, None)
    assert learner.email_notifications is True
    _run_at(datetime(2026, 12, 11, 14, 1, tzinfo=UTC))
    assert len(_reminded(learner)) == 1


def test_a_learner_waiting_for_deletion_gets_no_reminder(learner):
    User.objects.filter(pk=learner.pk).update(deletion_requested_at=BANGKOK_2100)

    _run_at(BANGKOK_2100.replace(minute=1))

    assert _reminded(learner) == []
