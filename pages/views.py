"""The learner's composite pages: the lesson page and the quest outline with the learner's
completion marks. Published pages are kept rendered in the cache under the versions of what
they show (learning_platform/versioned.py); staff, who see drafts, always get a fresh build."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.models import Requester
from community.selectors import discussion_version_key
from learning_platform import versioned
from learning_platform.api.conditional import (
    IF_NONE_MATCH,
    Page,
    conditional_response,
    page,
)
from lessons.selectors import sees_drafts
from pages import selectors
from pages.serializers import LessonDetailSerializer, QuestDetailSerializer
from progress.summary_cache import learner_version_key


@versioned.cached(
    key=lambda *, slug: f"pages:quest-outline:{slug}",
    versions=lambda *, slug: [versioned.CONTENT],
)
def public_outline(*, slug: str) -> dict[str, Any]:
    return selectors.public_quest_outline(slug=slug)


@versioned.cached(
    key=lambda *, slug: f"pages:quest:{slug}", versions=lambda *, slug: [versioned.CONTENT]
)
def public_outline_page(*, slug: str) -> Page:
    return page(QuestDetailSerializer(public_outline(slug=slug)).data)


@versioned.cached(
    key=lambda *, slug, user_id: f"pages:quest:{slug}:{user_id}",
    versions=lambda *, slug, user_id: [versioned.CONTENT, learner_version_key(user_id)],
)
def learner_outline_page(*, slug: str, user_id: int) -> Page:
    completed = selectors.completed_in_quest(slug=slug, user_id=user_id)
    outline = selectors.with_marks(public_outline(slug=slug), completed=completed)
    return page(QuestDetailSerializer(outline).data)


@versioned.cached(
    key=lambda *, slug: f"pages:lesson:{slug}",
    versions=lambda *, slug: [versioned.CONTENT, discussion_version_key(slug)],
)
def public_lesson_page(*, slug: str) -> Page:
    return page(lesson_data(slug=slug, user=None))


def lesson_data(*, slug: str, user: Requester | None) -> dict[str, Any]:
    lesson_page = selectors.lesson_page(slug=slug, user=user)
    context = {
        "previous": lesson_page.previous,
        "next": lesson_page.next,
        "exercise": lesson_page.exercise,
        "comment_count": lesson_page.comment_count,
    }
    return LessonDetailSerializer(lesson_page.lesson, context=context).data


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
            return conditional_response(request, public_outline_page(slug=slug))
        return conditional_response(request, learner_outline_page(slug=slug, user_id=user.pk))


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
            return conditional_response(request, lesson_data(slug=slug, user=request.user))
        return conditional_response(request, public_lesson_page(slug=slug))
