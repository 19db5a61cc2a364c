from typing import Any, ClassVar

from rest_framework import serializers

from accounts.display_names import INVISIBLE_MESSAGE, normalize_display_name, refused_character
from accounts.models import TIME_ZONES, User
from learning_platform.api.fields import StrictBooleanField, StrictRegexField
from learning_platform.text import ONE_LINE_PATTERN

REMINDER_TIME_HELP = (
    "A reminder each day at this time on the learner's clock (HH:MM), sent only on a day "
    "they have not yet kept their streak or met their goal; null: no reminders."
)


class ProfileOutputSerializer(serializers.ModelSerializer[User]):
    public_name = serializers.CharField(
        read_only=True,
        help_text="How others see the learner: the display name, or the handle while it is empty.",
    )
    reminder_time = serializers.TimeField(
        format="%H:%M", read_only=True, allow_null=True, help_text=REMINDER_TIME_HELP
    )

    class Meta:
        model = User
        fields = (
            "id",
            "email",
            "display_name",
            "public_name",
            "time_zone",
            "reply_notifications",
            "email_notifications",
            "show_on_leaderboard",
            "reminder_time",
            "date_joined",
            "deletion_requested_at",
            "name_invited_at",
        )
        read_only_fields = fields
        extra_kwargs: ClassVar[dict[str, dict[str, str]]] = {
            "name_invited_at": {
                "help_text": "When the learner was invited to choose a display name (shown once, "
                "while the handle stands for them); null until then."
            }
        }


class SessionStateSerializer(serializers.Serializer[Any]):
    is_authenticated = serializers.BooleanField()
    user = ProfileOutputSerializer(allow_null=True, help_text="Null when signed out.")


class ProfileInputSerializer(serializers.Serializer[Any]):
    display_name = StrictRegexField(
        ONE_LINE_PATTERN,
        max_length=60,
        allow_blank=True,
        required=False,
        error_messages={
            "invalid": "A name cannot contain line breaks or other control characters."
        },
    )
    time_zone = serializers.ChoiceField(
        choices=TIME_ZONES,
        required=False,
        error_messages={"invalid_choice": "'{input}' is not a known IANA time zone."},
    )
    reply_notifications = StrictBooleanField(required=False)
    email_notifications = StrictBooleanField(required=False)
    show_on_leaderboard = StrictBooleanField(required=False)
    reminder_time = serializers.TimeField(
        required=False,
        allow_null=True,
        input_formats=["%H:%M"],
        help_text=REMINDER_TIME_HELP,
        error_messages={"invalid": "Give the time as HH:MM, e.g. 19:30."},
    )

    def validate_display_name(self, value: str) -> str:
        character = refused_character(value)
        if character:
            raise serializers.ValidationError(INVISIBLE_MESSAGE.format(character=character))
        return normalize_display_name(value)


class DeletionInputSerializer(serializers.Serializer[Any]):
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, help_text="The account's current password."
    )


class DeletionTermsSerializer(serializers.Serializer[Any]):
    grace_days = serializers.IntegerField(
        help_text="Days between asking for the deletion and the deletion, in which signing in "
        "cancels it (`ACCOUNT_DELETION_GRACE_DAYS`)."
    )


class DeletionOutputSerializer(serializers.Serializer[Any]):
    requested_at = serializers.DateTimeField()
    delete_after = serializers.DateTimeField(
        help_text="When the account is deleted unless its owner signs in before."
    )
