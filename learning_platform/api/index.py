"""`GET /api/v1/`: where everything is, so a client (or a curious developer) starts from one URL."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

# Entry point -> URL name, in the order a reader meets them. Only collections and the
# learner's own resources: item URLs are in the answers that list them.
ENTRY_POINTS: dict[str, str] = {
    "quests": "quest-list",
    "lessons": "lesson-list",
    "levels": "level-list",
    "achievements": "achievement-list",
    "leaderboard": "leaderboard",
    "session": "session",
    "me": "me",
    "progress": "me-progress",
    "progress_sync": "me-progress-sync",
    "notifications": "notification-list",
    "reports": "my-report-list",
    "auth_browser_session": "headless:browser:account:current_session",
    "auth_app_session": "headless:app:account:current_session",
    "auth_schema": "headless:openapi_json",
    "schema": "schema",
    "docs": "api-docs",
}


class ApiIndexSerializer(serializers.Serializer[None]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {name: serializers.URLField() for name in ENTRY_POINTS}


class ApiIndexView(APIView):
    # The same for everyone: it reads no session (nor spends a query on one).
    authentication_classes = ()
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["api"],
        operation_id="api_index",
        responses=ApiIndexSerializer,
        description="The API's entry points as absolute URLs: catalogue (`quests`, `lessons`, "
        "`levels`, `achievements`, `leaderboard`), whether the caller is signed in (`session`), "
        "the learner's own resources (`me`, "
        "`progress`, `progress_sync`, `notifications`, `reports`), authentication "
        "(allauth headless: `auth_browser_session` for cookie clients, `auth_app_session` "
        "for token clients, `auth_schema` its OpenAPI document) and this API's `schema` "
        "and `docs`.",
    )
    def get(self, request: Request) -> Response:
        return Response(
            {name: request.build_absolute_uri(reverse(url)) for name, url in ENTRY_POINTS.items()}
        )
