"""Daily reminders on the learner's clock (issue 38): opt-in, at the local time the learner
picked (`User.reminder_time`), and only on a day they have not yet kept their streak or met
their goal ("2 hours left to keep your 12-day streak"). In the app, by Web Push on the devices
where the learner allowed it (notifications.push) and, for learners who take e-mails, by e-mail
with a one-click unsubscribe from the reminders alone.

At most one a day: the notification's key and the e-mail's key name the learner's day, and
both are unique in the database, so a retried or doubled run sends nothing twice. Each learner
handled (reminded or not) is given the next day's time (`accounts.services.
schedule_next_reminder`), so the beat task reads only the learners due.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta
from typing import Any

from django.template.loader import render_to_string

from accounts import selectors as accounts
from accounts.models import User
from accounts.services import schedule_next_reminder
from learning_platform import clock
from notifications import push
from notifications import services as notifications
from progress.selectors.learners import days_of_users, today_in
from progress.streaks import day_start

BATCH_SIZE = 500
# A reminder found later than this (workers down for hours) would arrive at the wrong time of
# the learner's day: it is skipped, and the next day's is scheduled.
STALE_AFTER = timedelta(hours=1)
NOTIFICATION_KIND = "reminder"


def send_due_reminders(*, batch_size: int = BATCH_SIZE) -> int:
    """Handle one batch of the learners due by now (remind them, or not when their day is
    done); returns how many were handled."""
    now = clock.now()
    due = accounts.learners_due_a_reminder(now=now, limit=batch_size)
    days = days_of_users(user_ids=[user.pk for user in due])
    for user in due:
        assert user.reminder_due_at is not None  # the selector's filter
        if now - user.reminder_due_at <= STALE_AFTER:
            _remind(user, days[user.pk], now)
        schedule_next_reminder(user=user, after=now)
    return len(due)


def reminder_text(day: dict[str, Any], *, left: timedelta) -> str | None:
    """What the reminder says, or None when there is nothing left to do today."""
    streak, goal = day["streak"], day["daily_goal"]
    kept = streak["today"] == "done"
    goal_open = goal["xp"] is not None and not goal["met"]
    if kept and not goal_open:
        return None
    hours = int(left.total_seconds() // 3600)
    time_left = "Less than an hour" if hours < 1 else f"{hours} hour{'s' if hours > 1 else ''}"
    if not kept and streak["current"] >= 1:
        return f"{time_left} left to keep your {streak['current']}-day streak"
    if goal_open:
        return f"{goal['xp'] - goal['xp_today']} XP to go to today's goal of {goal['xp']} XP"
    return "Time for today's lesson"


def _remind(user: User, day: dict[str, Any], now: datetime) -> None:
    zone = zoneinfo.ZoneInfo(user.time_zone)
    today = today_in(zone, at=now)
    title = reminder_text(day, left=day_start(today + timedelta(days=1), zone) - now)
    if title is None:
        return
    created = notifications.create_notification(
        recipient_id=user.pk,
        kind=NOTIFICATION_KIND,
        title=title,
        url="/",
        dedupe_key=f"reminder:{today.isoformat()}",
    )
    if created is None:
        return
    # Web Push on the devices where the learner allowed it (nothing when none did).
    push.push_after_commit(notification_id=created.pk)
    if user.email_notifications and user.email:
        _email(user, title=title, today=today.isoformat())


def _email(user: User, *, title: str, today: str) -> None:
    context = {
        "title": title,
        "home": notifications.absolute_frontend_url("/"),
        "settings_url": notifications.absolute_frontend_url("/settings"),
        "stop": notifications.unsubscribe_url(user_id=user.pk, reminders=True),
    }
    notifications.send_email(
        key=f"reminder:{user.pk}:{today}",
        to_address=user.email,
        recipient_id=user.pk,
        subject=title,
        text_body=render_to_string("progress/email/reminder.txt", context),
        html_body=render_to_string("progress/email/reminder.html", context),
        unsubscribe_url=context["stop"],
    )
