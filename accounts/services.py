from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from accounts import events
from accounts.display_names import TAKEN_MESSAGE
from accounts.models import User
from learning_platform import clock, outbox
from learning_platform.errors import InvalidField, InvalidInput

# What a deleted learner is shown as, where what they wrote stays (comments).
DELETED_LEARNER = "A deleted learner"


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


def address_held_elsewhere(*, email: str, user_id: int) -> bool:
    """Whether `email` is held by an account other than `user_id`'s: as its own address (the
    one it signed up with or made primary, confirmed or not) or as an address it verified.

    Such an address is never attached to another account (accounts.apps): a confirmation
    e-mail for it would reach its owner, who, trusting a genuine e-mail from us, could confirm
    it and hand their address to the other account (issue 41). An address another account
    only attached unverified is not held: it is detached instead (release_unverified_address).
    """
    from allauth.account.models import EmailAddress

    verified_elsewhere = EmailAddress.objects.filter(email__iexact=email, verified=True).exclude(
        user_id=user_id
    )
    return (
        User.objects.filter(email__iexact=email).exclude(pk=user_id).exists()
        or verified_elsewhere.exists()
    )


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
    "reminder_time",
)


def next_reminder_at(
    *, reminder_time: time | None, time_zone: str, after: datetime
) -> datetime | None:
    """The first instant after `after` at which the learner's clock shows `reminder_time`
    (None: no reminder). A time a DST change skips comes at the same offset as before it."""
    if reminder_time is None:
        return None
    zone = zoneinfo.ZoneInfo(time_zone)
    local = after.astimezone(zone)
    due = datetime.combine(local.date(), reminder_time, tzinfo=zone)
    if due <= after:
        due = datetime.combine(local.date() + timedelta(days=1), reminder_time, tzinfo=zone)
    return due.astimezone(UTC)


def schedule_next_reminder(*, user: User, after: datetime) -> None:
    """Move the learner's next reminder to the day after the one just handled."""
    user.reminder_due_at = next_reminder_at(
        reminder_time=user.reminder_time, time_zone=user.time_zone, after=after
    )
    User.objects.filter(pk=user.pk).update(reminder_due_at=user.reminder_due_at)


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
    fields = list(changes)
    if "reminder_time" in changes or "time_zone" in changes:
        if isinstance(user.reminder_time, time):  # to the minute, as the app sets it
            user.reminder_time = user.reminder_time.replace(second=0, microsecond=0)
        user.reminder_due_at = next_reminder_at(
            reminder_time=user.reminder_time, time_zone=user.time_zone, after=clock.now()
        )
        fields.append("reminder_due_at")
    try:
        if "display_name" in changes:
            user.full_clean(exclude=["password", "email"])
        else:
            # Only what changes is checked: a name given under older rules (which the migration
            # kept) must not stop a learner from, say, unsubscribing.
            unchanged = [f.name for f in user._meta.concrete_fields if f.name not in changes]
            user.clean_fields(exclude=unchanged)
        with transaction.atomic():
            user.save(update_fields=fields)
    except IntegrityError as error:
        # The other learner committed between the check in clean() and this save.
        if "display_name_key" not in str(error):
            raise
        raise _invalid({"display_name": [TAKEN_MESSAGE]}) from error
    except ValidationError as error:
        raise _invalid(error.message_dict) from error
    return user


def record_name_invitation(*, user: User) -> User:
    """Note that `user` was invited to choose a display name, once: the first time counts, so
    the invitation is never shown again, on any device. Calling it again changes nothing."""
    User.objects.filter(pk=user.pk, name_invited_at__isnull=True).update(
        name_invited_at=clock.now()
    )
    user.refresh_from_db(fields=["name_invited_at"])
    return user


def _invalid(errors: dict[str, list[str]]) -> InvalidInput:
    field, messages = next(iter(errors.items()))
    return InvalidInput(f"{field}: {messages[0]}", errors=errors)


def deletion_due_at(*, requested_at: datetime) -> datetime:
    """When an account asked to be deleted at `requested_at` is purged."""
    return requested_at + timedelta(days=settings.ACCOUNT_DELETION_GRACE_DAYS)


def request_account_deletion(*, user: User, password: str) -> datetime:
    """Schedule `user`'s account for deletion once the grace period has run; when it will be.

    The password confirms it is the owner asking. Every session of the account ends (this one
    too): signing in again during the grace period cancels the deletion
    (cancel_account_deletion), and the owner is told both by e-mail.
    """
    from allauth.usersessions.models import UserSession

    if not user.check_password(password):
        raise InvalidField("password", "The password is not right.")
    now = clock.now()
    with transaction.atomic():
        user.deletion_requested_at = now
        user.save(update_fields=["deletion_requested_at"])
        for session in UserSession.objects.filter(user=user):
            session.end()
        due = deletion_due_at(requested_at=now)
        _tell_owner(user, "account/email/deletion_requested", {"due": due})
    return due


def cancel_account_deletion(*, user: User) -> bool:
    """Keep `user`'s account if its deletion is pending (called on every sign-in); whether one
    was. A purged account cannot sign in, so this never races the purge into a half-deleted
    account: the purge re-reads the request under a row lock."""
    with transaction.atomic():
        cancelled = User.objects.filter(
            pk=user.pk, deletion_requested_at__isnull=False, deleted_at__isnull=True
        ).update(deletion_requested_at=None)
        if cancelled:
            user.deletion_requested_at = None
            _tell_owner(user, "account/email/deletion_cancelled", {})
    return bool(cancelled)


def _tell_owner(user: User, template_prefix: str, context: dict[str, Any]) -> None:
    from allauth.account.adapter import get_adapter

    get_adapter().send_mail(template_prefix, user.email, {"email": user.email, **context})


def accounts_due_for_purge(*, now: datetime, limit: int) -> list[int]:
    """The ids of up to `limit` accounts whose grace period ended before `now`."""
    cutoff = now - timedelta(days=settings.ACCOUNT_DELETION_GRACE_DAYS)
    return list(
        User.objects.filter(deletion_requested_at__lte=cutoff, deleted_at__isnull=True)
        .order_by("deletion_requested_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def purge_account(*, user_id: int, now: datetime | None = None) -> bool:
    """Delete what says who the learner `user_id` was, if their grace period is over; whether
    this call did it (again: nothing, so it can run twice).

    The user row stays as a tombstone with nothing personal in it (no address, name, password
    or time zone; shown as "A deleted learner"; inactive, so off the boards): the XP ledger,
    completions and comments keep pointing at it, and the totals the boards and analytics add
    up stay as they were. The apps above delete or blank their personal rows through
    `accounts.events.account_purged`; allauth's addresses and sessions go here, and the e-mails
    to those addresses an outage kept in the outbox.
    """
    from allauth.account.models import EmailAddress
    from allauth.usersessions.models import UserSession

    now = now or clock.now()
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id).first()
        if (
            user is None
            or user.deleted_at is not None
            or user.deletion_requested_at is None
            or deletion_due_at(requested_at=user.deletion_requested_at) > now
        ):
            return False
        for session in UserSession.objects.filter(user=user):
            session.end()
        addresses = {
            a.lower()
            for a in EmailAddress.objects.filter(user=user).values_list("email", flat=True)
        }
        addresses.add(user.email.lower())
        EmailAddress.objects.filter(user=user).delete()
        # E-mails to the learner an outage kept in the outbox are never sent now.
        outbox.discard_unsent(
            task="accounts.send_email",
            matching=lambda kwargs: any(to.lower() in addresses for to in kwargs.get("to", [])),
        )
        names = tuple(name for name in (user.email, user.display_name, user.public_handle) if name)
        events.account_purged.announce(events.AccountPurged(user_id=user.pk, former_names=names))
        user.email = f"deleted-{user.pk}@deleted.invalid"
        user.display_name = ""
        user.public_handle = DELETED_LEARNER
        user.time_zone = "UTC"
        user.name_invited_at = None
        user.reminder_time = user.reminder_due_at = None
        user.set_unusable_password()
        user.is_active = False
        user.is_staff = False
        user.is_superuser = False
        user.last_login = None
        user.deleted_at = now
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
    return True
