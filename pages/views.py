"""The learner's composite pages: the lesson page and the quest outline with the learner's
completion marks. Published pages are kept rendered in the cache (pages/selectors.py); staff,
who see drafts, always get a fresh build."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from learning_platform.api.conditional import IF_NONE_MATCH, conditional_response
from lessons.selectors import sees_drafts
from pages import selectors
from pages.serializers import LessonDetailSerializer, QuestDetailSerializer


class QuestDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["quests"],
        operation_id="quests_retrieve",
        parameters=[IF_NONE_MATCH],
        responses=QuestDetailSerializer,
        description="The quest with its ordered lesson outline; for a signed-in learner, "
        "whether each lesson is completed.",
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        user = request.user
        if sees_drafts(user):
            outline = selectors.quest_outline(slug=slug, user=user)
            return conditional_response(request, QuestDetailSerializer(outline).data)
        if not user.is_authenticated:
            return conditional_response(request, selectors.public_outline_page(slug=slug))
        return conditional_response(
            request, selectors.learner_outline_page(slug=slug, user_id=user.pk)
        )


class LessonDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["lessons"],
        operation_id="lessons_retrieve",
        parameters=[IF_NONE_MATCH],
        responses=LessonDetailSerializer,
        description="The whole lesson: blocks, links, its exercise if any, the comment count, "
        "and the previous and next lessons of its quest. Drafts answer 404 except to staff.",
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        if sees_drafts(request.user):
            return conditional_response(
                request, selectors.lesson_data(slug=slug, user=request.user)
            )
        return conditional_response(request, selectors.public_lesson_page(slug=slug))
