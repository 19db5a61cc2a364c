"""The content's catalogue: quests and lessons as lists. The lesson page and the quest outline
a learner reads are composed in pages (pages/views.py)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Model, QuerySet
from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request

from learning_platform.api.conditional import IF_NONE_MATCH, conditional_response
from learning_platform.api.fields import StrictCharField
from learning_platform.api.query import QuerySerializer
from lessons import selectors
from lessons.models import Lesson, Quest
from lessons.serializers import LessonListSerializer, QuestListSerializer

_M = TypeVar("_M", bound=Model)


class ConditionalListView(generics.ListAPIView[_M]):
    """Paginated list answers that carry an ETag and honour `If-None-Match`."""

    # A 304 answer is a plain HttpResponse, not DRF's Response.
    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:  # type: ignore[override]
        return conditional_response(request, super().list(request, *args, **kwargs).data)


@extend_schema(tags=["quests"], parameters=[IF_NONE_MATCH])
class QuestListView(ConditionalListView[Quest]):
    """Every quest (course)."""

    permission_classes = [AllowAny]
    serializer_class = QuestListSerializer

    def get_queryset(self) -> QuerySet[Quest]:
        return selectors.quest_list()


class LessonFilterSerializer(QuerySerializer):
    quest = serializers.SlugField(required=False, help_text="Only lessons of this quest (slug).")
    tag = serializers.SlugField(required=False, help_text="Only lessons with this tag.")
    search = StrictCharField(
        required=False, max_length=100, help_text="Words in the title or summary."
    )


@extend_schema(tags=["lessons"], parameters=[LessonFilterSerializer, IF_NONE_MATCH])
class LessonListView(ConditionalListView[Lesson]):
    """Lessons, in quest order, filtered by quest, tag and a search."""

    permission_classes = [AllowAny]
    serializer_class = LessonListSerializer

    def get_queryset(self) -> QuerySet[Lesson]:
        filters = LessonFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return selectors.lesson_list(user=self.request.user, **filters.validated_data)
