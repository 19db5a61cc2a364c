from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from accounts.display_names import TAKEN_MESSAGE
from accounts.models import User
from learning_platform.errors import InvalidInput


def queue_email(*, subject: str, body: str, to: list[str], html_body: str | None = None) -> None:
    """Send an e-mail from a Celery worker once the current transaction commits (kept in the
    database for the sweep while the broker is unreachable)."""
    from accounts.tasks import send_email

    # celery-types types a shared_task as Celery's Task; the app's (learning_platform.celery)
    # is a DjangoTask, which has delay_on_commit.
    send_email.delay_on_commit(  # type: ignore[attr-defined]
        subject=subject, body=body, to=to, html_body=html_body
    )


def release_unverified_address(*, email: str, keep_user_id: object = None) -> int:
    """Detach `email` from every account that attached it as a secondary address without
    verifying it (except `keep_user_id`'s); the number detached.

    Nobody proved they own such an address, so it must not block the owner's sign-up nor
    receive a reset for the account it hangs on (a pre-account takeover, issue 25). Called
    before allauth looks the address up (accounts.adapters.AccountAdapter.clean_email). An
    account's own sign-up address (its User.email) stays: a reset through it reaches that
    account, whose sessions the new password ends.
    """
    from allauth.account.models import EmailAddress

    held = EmailAddress.objects.filter(email__iexact=email, verified=False, primary=False).exclude(
        user__email__iexact=email
    )
    if keep_user_id is not None:
        held = held.exclude(user_id=keep_user_id)
    deleted: int = held.delete()[0]
    return deleted


def claim_account_by_reset(*, user: User, email: str) -> list[str]:
    """A password reset completed by a key sent to `email` proves the address: it becomes the
    account's verified own address, and every other address is detached (the returned list),
    the owner told by e-mail.

    Those addresses were added by whoever held the account before: an attacker who signed up
    with someone else's address, never confirmed it, and added one of their own could else
    reset their way back in after the owner claimed the account (issue 25). The new password
    ends every other session.
    """
    from allauth.account.adapter import get_adapter
    from allauth.account.models import EmailAddress

    email = email.lower()
    with transaction.atomic():
        others = EmailAddress.objects.filter(user=user).exclude(email__iexact=email)
        detached = sorted(others.values_list("email", flat=True))
        others.delete()
        EmailAddress.objects.update_or_create(
            user=user,
            email__iexact=email,
            defaults={"email": email, "verified": True, "primary": True},
        )
        if user.email.lower() != email:
            user.email = email
            user.save(update_fields=["email"])
        if detached:
            get_adapter().send_mail(
                "account/email/addresses_detached",
                email,
                {"email": email, "detached": detached},
            )
    return detached


def is_unconfirmed_signup_address(*, email: str) -> bool:
    """Whether `email` is the own address an account was started with and never verified."""
    from allauth.account.models import EmailAddress

    verified = EmailAddress.objects.filter(
        user_id=OuterRef("pk"), email__iexact=email, verified=True
    )
    return User.objects.filter(email__iexact=email).exclude(Exists(verified)).exists()


def may_sign_in_with(*, user: User, email: str) -> bool:
    """Sign-in by e-mail: the account's own address, or a secondary one it verified."""
    from allauth.account.models import EmailAddress

    return (
        user.email.lower() == email.lower()
        or EmailAddress.objects.filter(user=user, email__iexact=email, verified=True).exists()
    )


PROFILE_FIELDS = (
    "display_name",
    "time_zone",
    "reply_notifications",
    "email_notifications",
    "show_on_leaderboard",
)


def update_profile(*, user: User, **changes: Any) -> User:
    """Change the editable profile fields of `user`; unknown keys are a programming error.

    A display name that is taken (another learner's, or one a reader cannot tell from it)
    raises InvalidInput naming `display_name`, also when two learners take it at once.
    """
    unknown = set(changes) - set(PROFILE_FIELDS)
    if unknown:
        raise TypeError(f"Not profile fields: {sorted(unknown)}")
    for field, value in changes.items():
        setattr(user, field, value)
    try:
        if "display_name" in changes:
            user.full_clean(exclude=["password", "email"])
        else:
            # Only what changes is checked: a name given under older rules (which the migration
            # kept) must not stop a learner from, say, unsubscribing.
            unchanged = [f.name for f in user._meta.concrete_fields if f.name not in changes]
            user.clean_fields(exclude=unchanged)
        with transaction.atomic():
            user.save(update_fields=list(changes))
    except IntegrityError as error:
        # The other learner committed between the check in clean() and this save.
        if "display_name_key" not in str(error):
            raise
        raise _invalid({"display_name": [TAKEN_MESSAGE]}) from error
    except ValidationError as error:
        raise _invalid(error.message_dict) from error
    return user


def _invalid(errors: dict[str, list[str]]) -> InvalidInput:
    field, messages = next(iter(errors.items()))
    return InvalidInput(f"{field}: {messages[0]}", errors=errors)
