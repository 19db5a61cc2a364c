from __future__ import annotations

from typing import Any

from accounts.models import User


def queue_email(*, subject: str, body: str, to: list[str], html_body: str | None = None) -> None:
    """Send an e-mail from a Celery worker once the current transaction commits (kept in the
    database for the sweep while the broker is unreachable)."""
    from accounts.tasks import send_email

    # celery-types types a shared_task as Celery's Task; the app's (learning_platform.celery)
    # is a DjangoTask, which has delay_on_commit.
    send_email.delay_on_commit(  # type: ignore[attr-defined]
        subject=subject, body=body, to=to, html_body=html_body
    )


PROFILE_FIELDS = (
    "display_name",
    "time_zone",
    "reply_notifications",
    "email_notifications",
    "show_on_leaderboard",
)


def update_profile(*, user: User, **changes: Any) -> User:
    """Change the editable profile fields of `user`; unknown keys are a programming error."""
    unknown = set(changes) - set(PROFILE_FIELDS)
    if unknown:
        raise TypeError(f"Not profile fields: {sorted(unknown)}")
    for field, value in changes.items():
        setattr(user, field, value)
    user.full_clean(exclude=["password", "email"])
    user.save(update_fields=list(changes))
    return user
