"""Reads of the accounts app."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings

from accounts import events
from accounts.models import Requester, User
from accounts.serializers import SessionStateSerializer


def session_state(*, user: Requester | None) -> dict[str, Any]:
    """GET /api/v1/session's body: whether `user` is signed in and, if so, their profile (the
    web pages embed the signed-out one)."""
    signed_in = user is not None and user.is_authenticated
    return SessionStateSerializer(
        {"is_authenticated": signed_in, "user": user if signed_in else None}
    ).data


def account_data(*, user: User) -> dict[str, Any]:
    """A copy of everything the platform holds about `user` (GDPR article 20), as JSON data:
    the profile, and the sections the apps above add (accounts.events.account_data_asked)."""
    from allauth.account.models import EmailAddress

    data: dict[str, Any] = {
        "profile": {
            "id": user.pk,
            "email": user.email,
            "display_name": user.display_name,
            "public_name": user.public_name,
            "time_zone": user.time_zone,
            "reply_notifications": user.reply_notifications,
            "email_notifications": user.email_notifications,
            "show_on_leaderboard": user.show_on_leaderboard,
            "reminder_time": user.reminder_time.strftime("%H:%M") if user.reminder_time else None,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
            "name_invited_at": user.name_invited_at.isoformat() if user.name_invited_at else None,
        },
        "email_addresses": [
            {"email": address.email, "verified": address.verified, "primary": address.primary}
            for address in EmailAddress.objects.filter(user=user).order_by("pk")
        ],
    }
    for sections in events.account_data_asked.announce(events.AccountDataAsked(user_id=user.pk)):
        data.update(sections)
    return data


def deletion_terms() -> dict[str, Any]:
    """What asking for an account's deletion means: the days in which signing in cancels it."""
    return {"grace_days": settings.ACCOUNT_DELETION_GRACE_DAYS}


def learners_due_a_reminder(*, now: datetime, limit: int) -> list[User]:
    """Learners whose daily reminder is due by `now`, soonest first (one index range scan):
    active accounts only, none waiting for deletion."""
    return list(
        User.objects.filter(
            reminder_due_at__lte=now,
            is_active=True,
            deletion_requested_at__isnull=True,
        )
        .only("id", "email", "time_zone", "reminder_time", "reminder_due_at", "email_notifications")
        .order_by("reminder_due_at", "id")[:limit]
    )
