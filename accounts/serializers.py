from rest_framework import serializers

from accounts.models import User, is_time_zone
from learning_platform.text import has_control_characters


class ProfileOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = (
            "id",
            "email",
            "display_name",
            "time_zone",
            "reply_notifications",
            "email_notifications",
            "show_on_leaderboard",
            "date_joined",
        )
        read_only_fields = fields


class ProfileInputSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=60, allow_blank=True, required=False)
    time_zone = serializers.CharField(max_length=64, required=False)
    reply_notifications = serializers.BooleanField(required=False)
    email_notifications = serializers.BooleanField(required=False)
    show_on_leaderboard = serializers.BooleanField(required=False)

    def validate_time_zone(self, value: str) -> str:
        if not is_time_zone(value):
            raise serializers.ValidationError(f"{value!r} is not a known IANA time zone.")
        return value

    def validate_display_name(self, value: str) -> str:
        if has_control_characters(value):
            raise serializers.ValidationError(
                "A name cannot contain line breaks or other control characters."
            )
        return value.strip()
