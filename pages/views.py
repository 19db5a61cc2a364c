"""The learner's composite pages: the lesson page and the quest outline with the learner's
completion marks. Published pages are kept rendered in the cache (pages/selectors.py); staff,
who see drafts, always get a fresh build."""

from __future__ import annotations

import json

from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from learning_platform.api.conditional import IF_NONE_MATCH, conditional_response
from lessons.selectors import LessonNotFound, renamed_lesson_slug, sees_drafts
from pages import selectors
from pages.serializers import LessonDetailSerializer, QuestDetailSerializer
from pages.web import MOVED_MAX_AGE


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
        responses={
            200: LessonDetailSerializer,
            301: OpenApiResponse(
                description="A slug the lesson had before a rename: Location is its address "
                'now; the body says so too ({"type": "moved", "slug", "location"}).'
            ),
        },
        description="The whole lesson: blocks, links, its exercise if any, the comment count, "
        "and the previous and next lessons of its quest. Drafts answer 404 except to staff.",
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        try:
            if sees_drafts(request.user):
                return conditional_response(
                    request, selectors.lesson_data(slug=slug, user=request.user)
                )
            return conditional_response(request, selectors.public_lesson_page(slug=slug))
        except LessonNotFound:
            # A renamed lesson's old address: 301 to the new one, which clients follow.
            renamed = renamed_lesson_slug(slug=slug, user=request.user)
            if renamed is None:
                raise
            location = reverse("lesson-detail", args=[renamed])
            return moved_permanently(location, {"type": "moved", "slug": renamed})


def moved_permanently(location: str, data: dict[str, str]) -> HttpResponse:
    """A 301 to `location`, its body `data` and the location, for clients that do not follow."""
    response = HttpResponsePermanentRedirect(
        location,
        content=json.dumps({**data, "location": location}),
        content_type="application/json",
    )
    response["Cache-Control"] = f"max-age={MOVED_MAX_AGE}"
    return response
