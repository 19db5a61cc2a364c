import secrets
import zoneinfo
from typing import Any, ClassVar

from django.contrib.auth.models import (
    AbstractBaseUser,
    AnonymousUser,
    BaseUserManager,
    PermissionsMixin,
)
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from accounts.display_names import (
    HANDLE_MESSAGE,
    INVISIBLE_MESSAGE,
    TAKEN_MESSAGE,
    display_name_key,
    looks_like_a_handle,
    normalize_display_name,
    refused_character,
)
from learning_platform.text import has_control_characters

# Every IANA zone that exists on every host, sorted: "UTC" and the Area/Location names, not the
# tz database's host-dependent entries ("localtime", "posixrules", "Factory"). What the API
# offers (and its schema lists). Read once: available_timezones() walks the zoneinfo
# directories on each call (tens of milliseconds; once per zone, it cost every process that
# loads the models seconds at start).
TIME_ZONES = sorted(zone for zone in zoneinfo.available_timezones() if zone == "UTC" or "/" in zone)
_TIME_ZONE_SET = frozenset(TIME_ZONES)


def validate_display_name(value: str) -> None:
    if has_control_characters(value):
        raise ValidationError(
            "A name cannot contain line breaks or other control characters.", code="invalid"
        )
    character = refused_character(value)
    if character:
        raise ValidationError(INVISIBLE_MESSAGE.format(character=character), code="invalid")


def new_public_handle() -> str:
    """A learner's public name until they pick one: random, so it says nothing about their
    e-mail address or when they joined."""
    return f"Learner {secrets.randbelow(900_000) + 100_000}"


def validate_time_zone(value: str) -> None:
    if value not in _TIME_ZONE_SET:
        raise ValidationError(f"{value!r} is not a known IANA time zone.", code="invalid")


def public_name(*, display_name: str, public_handle: str) -> str:
    """How a learner is shown to others (comments, notifications, leaderboard)."""
    return display_name or public_handle


class UserQuerySet(models.QuerySet["User"]):
    def update(self, **kwargs: Any) -> int:
        """A queryset update skips save() and its signal, which drop the user's cached row
        (accounts.backends): the rows it changes are dropped here, so a deactivation or a
        password change made this way (an admin action, a shell) takes effect on the next
        request too."""
        from accounts.backends import forget_cached_users

        user_ids = list(self.values_list("pk", flat=True))
        updated = super().update(**kwargs)
        forget_cached_users(user_ids)
        return updated


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def get_queryset(self) -> UserQuerySet:
        return UserQuerySet(self.model, using=self._db)

    def _create_user(self, email: str, password: str | None, **extra_fields: Any) -> "User":
        if not email:
            raise ValueError("An e-mail address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra_fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **extra_fields: Any) -> "User":
        extra_fields.setdefault("is_staff", False)
        extra_fields.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra_fields)

    def create_superuser(
        self, email: str, password: str | None = None, **extra_fields: Any
    ) -> "User":
        extra_fields.setdefault("is_staff", True)
        extra_fields.setdefault("is_superuser", True)
        return self._create_user(email, password, **extra_fields)


class User(AbstractBaseUser, PermissionsMixin):
    """A learner or staff member. Signs in with an e-mail address."""

    # Not a column: the address a password-reset key being used was sent to, once the key
    # checked out (accounts.reset_keys); its completion proves that address.
    reset_through_email: str | None = None

    email = models.EmailField("e-mail address", unique=True)
    display_name = models.CharField(max_length=60, blank=True, validators=[validate_display_name])
    # The display name's skeleton (accounts.display_names): unique, so no two learners show
    # names a reader cannot tell apart. Derived from display_name on every save.
    display_name_key = models.CharField(max_length=240, blank=True, default="", editable=False)
    # Shown for a learner who has no display name (comments, notifications, leaderboard).
    public_handle = models.CharField(max_length=20, default=new_public_handle, editable=False)
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    # Notification preferences.
    reply_notifications = models.BooleanField(
        default=True,
        help_text="Default for following lessons one comments on: notify on replies.",
    )
    email_notifications = models.BooleanField(
        default=True, help_text="Also send notifications by e-mail, not only in-app."
    )
    show_on_leaderboard = models.BooleanField(default=True)
    # A reminder each day at this local time, opt-in (progress.services.reminders); null: none.
    reminder_time = models.TimeField(
        null=True, blank=True, help_text="A daily reminder at this local time; empty: none."
    )
    # When the next reminder is due, kept in step with reminder_time and time_zone
    # (accounts.services.next_reminder_at): the beat task reads a range of this index, not
    # every learner's zone.
    reminder_due_at = models.DateTimeField(null=True, blank=True, editable=False, db_index=True)
    # When the learner, still shown by their handle, was invited to choose a name: on the
    # account, not the device, so the invitation is shown once wherever they sign in.
    name_invited_at = models.DateTimeField(null=True, blank=True, editable=False)

    is_staff = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(default=timezone.now)
    # When the learner asked for the account to be deleted; signing in before the grace period
    # ends clears it (accounts.services.deletion). Set with deleted_at once it is purged: the
    # row stays, holding nothing personal, so the ledger and the comments keep their learner.
    deletion_requested_at = models.DateTimeField(null=True, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("email"), name="accounts_user_email_ci_unique"),
            models.UniqueConstraint(
                fields=["display_name_key"],
                condition=~models.Q(display_name_key=""),
                name="accounts_user_display_name_key_unique",
                violation_error_message=TAKEN_MESSAGE,
            ),
        ]
        indexes = [
            # The purge job's query: the accounts waiting to be deleted.
            models.Index(
                fields=["deletion_requested_at"],
                condition=models.Q(deletion_requested_at__isnull=False, deleted_at__isnull=True),
                name="accounts_user_deletion_due",
            ),
        ]

    def __str__(self) -> str:
        return self.email

    def clean(self) -> None:
        super().clean()
        self.display_name = normalize_display_name(self.display_name)
        self.display_name_key = display_name_key(self.display_name)
        # Checked here, not only by the constraint, so the admin and the API name the field.
        taken = User.objects.filter(display_name_key=self.display_name_key).exclude(pk=self.pk)
        if self.display_name_key and taken.exists():
            raise ValidationError({"display_name": TAKEN_MESSAGE}, code="unique")
        if looks_like_a_handle(self.display_name_key):
            raise ValidationError({"display_name": HANDLE_MESSAGE}, code="invalid")

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The key follows the name however it is saved (API, admin, factories, shell).
        self.display_name_key = display_name_key(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "display_name_key"}
        super().save(*args, **kwargs)

    @property
    def public_name(self) -> str:
        return public_name(display_name=self.display_name, public_handle=self.public_handle)

    @property
    def tzinfo(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)


# Whoever a request comes from: a user, or a visitor who is not signed in.
Requester = User | AnonymousUser


def user_display(user: User) -> str:
    """How allauth names a user (in its API answers and e-mails)."""
    return user.public_name
