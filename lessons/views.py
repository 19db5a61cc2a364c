from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from learning_platform.api.conditional import conditional_response
from learning_platform.api.query import QuerySerializer
from lessons import selectors
from lessons.serializers import (
    LessonDetailSerializer,
    LessonListSerializer,
    QuestDetailSerializer,
    QuestListSerializer,
)

NOT_MODIFIED = OpenApiResponse(description="Not modified: the `If-None-Match` ETag is current.")
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="An ETag from an earlier answer; a match answers 304 with no body.",
)


class ConditionalListMixin:
    """Paginated list answers that carry an ETag and honour `If-None-Match`."""

    def list(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        data = self.get_serializer(page, many=True).data
        return conditional_response(request, self.paginator.get_paginated_response(data).data)


@extend_schema(tags=["quests"], parameters=[IF_NONE_MATCH])
class QuestListView(ConditionalListMixin, generics.ListAPIView):
    """Every quest (course)."""

    permission_classes = [AllowAny]
    serializer_class = QuestListSerializer

    def get_queryset(self):
        return selectors.quest_list()


class QuestDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["quests"],
        operation_id="quests_retrieve",
        parameters=[IF_NONE_MATCH],
        responses={200: QuestDetailSerializer, 304: NOT_MODIFIED},
        description="The quest with its ordered lesson outline; for a signed-in learner, "
        "whether each lesson is completed.",
    )
    def get(self, request: Request, slug: str) -> Response:
        quest = selectors.get_quest(slug=slug)
        outline = selectors.quest_outline(quest=quest, user=request.user)
        return conditional_response(request, QuestDetailSerializer(outline).data)


class LessonFilterSerializer(QuerySerializer):
    quest = serializers.SlugField(required=False, help_text="Only lessons of this quest (slug).")
    tag = serializers.SlugField(required=False, help_text="Only lessons with this tag.")
    search = serializers.CharField(
        required=False, max_length=100, help_text="Words in the title or summary."
    )


@extend_schema(tags=["lessons"], parameters=[LessonFilterSerializer, IF_NONE_MATCH])
class LessonListView(ConditionalListMixin, generics.ListAPIView):
    """Lessons, in quest order, filtered by quest, tag and a search."""

    permission_classes = [AllowAny]
    serializer_class = LessonListSerializer

    def get_queryset(self):
        filters = LessonFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return selectors.lesson_list(user=self.request.user, **filters.validated_data)


class LessonDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["lessons"],
        operation_id="lessons_retrieve",
        parameters=[IF_NONE_MATCH],
        responses={200: LessonDetailSerializer, 304: NOT_MODIFIED},
        description="The whole lesson: blocks, links, its exercise if any, the comment count, "
        "and the previous and next lessons of its quest. Drafts answer 404 except to staff.",
    )
    def get(self, request: Request, slug: str) -> Response:
        from community.selectors import comment_counts_for_lessons
        from exercises.selectors import exercise_summaries_for_lesson

        lesson = selectors.get_lesson(slug=slug, user=request.user)
        previous, following = selectors.neighbours(lesson=lesson, user=request.user)
        exercises = exercise_summaries_for_lesson(lesson_id=lesson.id)
        context = {
            "previous": previous,
            "next": following,
            "exercise": exercises[0] if exercises else None,
            "comment_count": comment_counts_for_lessons(lesson_ids=[lesson.id]).get(lesson.id, 0),
        }
        return conditional_response(request, LessonDetailSerializer(lesson, context=context).data)
