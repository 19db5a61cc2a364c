"""The composite pages' answers: the lesson page and the quest outline, built on the
lessons' own serializers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from exercises.selectors import ExerciseSummary
from lessons import selectors as lessons
from lessons.serializers import (
    BlocksField,
    LessonListSerializer,
    LinkSerializer,
    NeighbourSerializer,
)


class ExerciseSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    title = serializers.CharField()
    kind = serializers.CharField()
    xp = serializers.IntegerField()


class LessonDetailSerializer(LessonListSerializer):
    """The whole lesson page. Context: previous, next, number, exercise, comment_count."""

    blocks = BlocksField()
    links = LinkSerializer(many=True)
    exercise = serializers.SerializerMethodField()
    comment_count = serializers.SerializerMethodField()
    number = serializers.SerializerMethodField(
        help_text="1-based place of the lesson in its quest's order, among the lessons the "
        "reader sees: what to show as its number (`position` is only a sort key)."
    )
    previous = serializers.SerializerMethodField()
    next = serializers.SerializerMethodField()
    draft_of: serializers.SlugRelatedField[lessons.Lesson] = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        allow_null=True,
        help_text="A draft of a live lesson (staff only): the live lesson's slug. Answers to its "
        "checks are graded, never recorded or paid.",
    )

    class Meta(LessonListSerializer.Meta):
        fields = (
            *LessonListSerializer.Meta.fields,
            "updated_at",
            "blocks",
            "links",
            "exercise",
            "comment_count",
            "number",
            "previous",
            "next",
            "draft_of",
        )
        read_only_fields = fields

    @extend_schema_field(ExerciseSummarySerializer(allow_null=True))
    def get_exercise(self, lesson: lessons.Lesson) -> ExerciseSummary | None:
        exercise: ExerciseSummary | None = self.context["exercise"]  # the context is untyped
        return exercise

    def get_comment_count(self, lesson: lessons.Lesson) -> int:
        count: int = self.context["comment_count"]
        return count

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_number(self, lesson: lessons.Lesson) -> int | None:
        number: int | None = self.context["number"]
        return number

    @extend_schema_field(NeighbourSerializer(allow_null=True))
    def get_previous(self, lesson: lessons.Lesson) -> dict[str, str] | None:
        neighbour: lessons.Neighbour | None = self.context["previous"]
        return {"slug": neighbour.slug, "title": neighbour.title} if neighbour else None

    @extend_schema_field(NeighbourSerializer(allow_null=True))
    def get_next(self, lesson: lessons.Lesson) -> dict[str, str] | None:
        neighbour: lessons.Neighbour | None = self.context["next"]
        return {"slug": neighbour.slug, "title": neighbour.title} if neighbour else None


class OutlineLessonSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    number = serializers.IntegerField(
        help_text="1-based place in the quest's order, among the lessons listed."
    )
    title = serializers.CharField()
    estimated_minutes = serializers.IntegerField()
    xp = serializers.IntegerField()
    tags = serializers.ListField(child=serializers.CharField())
    published = serializers.BooleanField()
    completed = serializers.BooleanField(
        allow_null=True,
        help_text="Whether the signed-in learner completed it; null when anonymous.",
    )


class OutlineUnitSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(allow_null=True)
    lessons = serializers.ListField(
        child=serializers.CharField(), help_text="Slugs of the unit's lessons, in order."
    )


class QuestDetailSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    lesson_count = serializers.IntegerField()
    lessons_completed = serializers.IntegerField(
        allow_null=True,
        help_text="Published lessons of the quest the signed-in learner completed; null when "
        "anonymous.",
    )
    percent_complete = serializers.IntegerField(
        allow_null=True,
        help_text="0-100, rounded down, of the published lessons; null when anonymous.",
    )
    units = OutlineUnitSerializer(
        many=True,
        help_text="The lessons grouped under their units' headings, in order: each run of "
        "consecutive lessons of one unit (title null: lessons in no unit).",
    )
    lessons = OutlineLessonSerializer(many=True)
