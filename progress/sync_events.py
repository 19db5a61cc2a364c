"""What one event of a device's sync looks like: the one definition, used by the sync service to
check each event and by the API's docs (progress/serializers.py).

A sync applies what it can: a malformed event is rejected with reason "malformed" and the first
thing wrong with it (fields in the order below), and the rest of the batch still applies. So the
fields accept exactly JSON's own types (no number for a string, no naive time) and each says in
one sentence what it expects.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.settings import api_settings

from learning_platform.errors import TooLarge

MAX_SYNC_EVENTS = 500
SYNC_EVENT_TYPES = frozenset({"lesson_completed"})
LESSON_SLUG_MAX_LENGTH = 100


class TooManyEvents(TooLarge):
    """A sync batch above MAX_SYNC_EVENTS."""

    default_detail = f"At most {MAX_SYNC_EVENTS} events per request; send the rest next."


def _messages(message: str, *codes: str) -> dict[str, Any]:
    return dict.fromkeys(("required", "null", "invalid", *codes), message)


class _EventIdField(serializers.UUIDField):
    # The id's canonical text, not a UUID: the service stores and compares text.
    def to_internal_value(self, data: Any) -> str:  # type: ignore[override]
        if not isinstance(data, str):
            self.fail("invalid")
        try:
            return str(uuid.UUID(data))
        except ValueError:
            self.fail("invalid")


class _LessonSlugField(serializers.SlugField):
    """A non-empty string of at most LESSON_SLUG_MAX_LENGTH characters: whether a lesson has it
    is the service's question (reason "unknown_lesson"), so its pattern is documented, not
    enforced."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, **kwargs)

    def run_validators(self, value: Any) -> None:
        pass  # the slug pattern is documented (self.validators), not enforced

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) or len(data) > LESSON_SLUG_MAX_LENGTH:
            self.fail("invalid")
        return data


class _OccurredAtField(serializers.DateTimeField):
    """An ISO 8601 date and time with a UTC offset, answered in UTC."""

    def to_internal_value(self, value: Any) -> datetime:
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            self.fail("invalid")
        if timezone.is_naive(parsed):
            self.fail("naive")
        try:
            return parsed.astimezone(UTC)
        except OverflowError:  # e.g. 0001-01-01T00:00:00+14:00 falls before year 1 in UTC
            self.fail("overflow")


class SyncEventSerializer(serializers.Serializer[Any]):
    """What one event looks like. Events are checked one by one by the service, so a bad one is
    rejected with a reason instead of failing the batch."""

    default_error_messages = {"invalid": "An event is a JSON object."}

    id = _EventIdField(
        help_text="Chosen by the device; resending it is harmless.",
        error_messages=_messages("id must be a UUID."),
    )
    type = serializers.ChoiceField(
        choices=sorted(SYNC_EVENT_TYPES),
        error_messages=_messages(
            f"type must be one of: {', '.join(SYNC_EVENT_TYPES)}.", "invalid_choice"
        ),
    )
    lesson = _LessonSlugField(
        help_text="Lesson slug.", error_messages=_messages("lesson must be a lesson slug.", "blank")
    )
    occurred_at = _OccurredAtField(
        help_text="ISO 8601 with a UTC offset.",
        error_messages={
            **_messages("occurred_at must be an ISO 8601 date and time."),
            "naive": "occurred_at needs a UTC offset, e.g. Z.",
            "overflow": "occurred_at is out of range.",
        },
    )

    def run_validation(self, data: Any = empty) -> Any:
        if not isinstance(data, Mapping):  # null, a list, a number: no event at all
            raise serializers.ValidationError(
                {api_settings.NON_FIELD_ERRORS_KEY: [self.error_messages["invalid"]]}
            )
        return super().run_validation(data)


def first_error(errors: Mapping[str, Any]) -> str:
    """The first message of a serializer's errors (fields in their declared order)."""
    messages = next(iter(errors.values()))
    return str(messages[0])
