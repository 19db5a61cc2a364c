"""Output shapes of the notifications API. Serializers present; never write."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from notifications.models import Notification

# --- In-app notifications -----------------------------------------------------------------


class NotificationSerializer(serializers.Serializer[Notification]):
    id = serializers.IntegerField()
    kind = serializers.CharField(
        help_text="comment_reply, lesson_comment, report_resolved, or another app's kind."
    )
    title = serializers.CharField()
    body = serializers.CharField()
    url = serializers.CharField(help_text="Path in the app to open, e.g. /lessons/<slug>.")
    # The metaclass moves declared fields off the class: no clash with Serializer.data.
    data = serializers.DictField(  # type: ignore[assignment]
        help_text="Kind-specific details, e.g. lesson, comment_id."
    )
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)
    is_read = serializers.SerializerMethodField()

    def get_is_read(self, notification: Notification) -> bool:
        return notification.read_at is not None


class ReadAllSerializer(serializers.Serializer[Any]):
    marked_read = serializers.IntegerField(help_text="How many notifications were unread.")
    unread_count = serializers.IntegerField()


# --- Unsubscribe ----------------------------------------------------------------------------


class UnsubscribeLessonSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    title = serializers.CharField()


class UnsubscribeSerializer(serializers.Serializer[Any]):
    scope = serializers.ChoiceField(
        choices=["lesson", "reminders", "email"],
        help_text="lesson: stop following one lesson; reminders: stop the daily reminders; "
        "email: stop all notification e-mails.",
    )
    lesson = UnsubscribeLessonSerializer(allow_null=True)
    done = serializers.BooleanField(help_text="False on GET (a confirmation), true after POST.")
