"""Input and output shapes of the reviews API. Serializers validate and present; they never write."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from exercises.serializers import CheckAnswerInputSerializer, CheckMarkSerializer
from learning_platform.api.fields import StrictCharField
from lessons import selectors as lessons
from lessons.serializers import CheckBlockSerializer, block_data

# Longer than anyone looks at one card: a device's clock, not the learner's thinking.
MAX_DURATION_MS = 3_600_000


class ReviewAnswerInputSerializer(CheckAnswerInputSerializer):
    id = StrictCharField(
        max_length=64,
        required=False,
        default="",
        help_text="The device's id of this answer (a UUID): sent again, it is scheduled once.",
    )
    duration_ms = serializers.IntegerField(
        min_value=0,
        max_value=MAX_DURATION_MS,
        required=False,
        allow_null=True,
        default=None,
        help_text="How long the learner took, from the card shown to the answer sent.",
    )


class ReviewResultSerializer(serializers.Serializer[Any]):
    correct = serializers.BooleanField()
    feedback = serializers.ListField(
        child=serializers.CharField(),
        help_text="As in the lesson: the editor's words for this kind of mistake.",
    )
    marks = serializers.DictField(child=CheckMarkSerializer())
    explanation = serializers.CharField(help_text="Why the answer is what it is.")
    solution = serializers.JSONField(
        allow_null=True, help_text="The right answer, in the answer's shape: after a wrong one."
    )
    scheduled = serializers.BooleanField(
        help_text="The card was due: the answer scheduled it (false: graded only)."
    )
    rating = serializers.ChoiceField(
        choices=["again", "hard", "good", "easy"],
        allow_null=True,
        help_text="How FSRS counted the answer (null when not scheduled).",
    )
    due = serializers.DateTimeField(help_text="When the card is due next.")
    xp_awarded = serializers.IntegerField()
    duplicate = serializers.BooleanField(help_text="An answer with this id was scheduled before.")


class ReviewLessonSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    title = serializers.CharField()


@extend_schema_field(CheckBlockSerializer)
class CheckBlockField(serializers.Field[lessons.Block, Any, dict[str, Any], Any]):
    """A check's block as its lesson page shows it (lessons.serializers: never the answer)."""

    def to_representation(self, block: lessons.Block) -> dict[str, Any]:
        return block_data(block)


class ReviewCardSerializer(serializers.Serializer[Any]):
    check = CheckBlockField(
        source="block", help_text="The check as its lesson shows it (choices unshuffled)."
    )
    lesson = ReviewLessonSerializer()
    due = serializers.DateTimeField()
    reps = serializers.IntegerField(help_text="Reviews so far, in the lesson included.")
    lapses = serializers.IntegerField(help_text="Times forgotten after being recalled.")


class ReviewSummarySerializer(serializers.Serializer[Any]):
    due = serializers.IntegerField(help_text="Cards due now.")
    next_due_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When nothing is due: when the next card comes due (null when cards are due, "
        "or the learner has none).",
    )


class ReviewQueueSerializer(ReviewSummarySerializer):
    cards = ReviewCardSerializer(many=True, help_text="The due cards, longest due first.")


class SyncReviewSerializer(serializers.Serializer[Any]):
    id = StrictCharField(max_length=64, help_text="The device's id of this answer (a UUID).")
    check = serializers.IntegerField(help_text="The check's id.")
    # An answer is an object in every kind: the schema says so, and null is a 400.
    answer = serializers.DictField()
    answered_at = serializers.DateTimeField()
    duration_ms = serializers.IntegerField(
        min_value=0, max_value=MAX_DURATION_MS, required=False, allow_null=True, default=None
    )


class SyncReviewsInputSerializer(serializers.Serializer[Any]):
    device_id = StrictCharField(max_length=64)
    answers = SyncReviewSerializer(many=True, help_text="At most 500 answers (413 beyond).")


class RejectedReviewSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    reason = serializers.ChoiceField(
        choices=["unknown_check", "no_card", "invalid_answer", "future_time", "too_old"]
    )
    detail = serializers.CharField()


class SyncReviewsResultSerializer(serializers.Serializer[Any]):
    accepted = serializers.IntegerField(help_text="Answers graded now.")
    not_scheduled = serializers.IntegerField(
        help_text="Of those, answers to cards that were not due when answered: graded only."
    )
    duplicates = serializers.IntegerField(help_text="Answers scheduled before (resent).")
    rejected = RejectedReviewSerializer(many=True)
    xp_awarded = serializers.IntegerField()
