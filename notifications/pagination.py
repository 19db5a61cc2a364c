from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from django.db.models import Model, QuerySet
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.signed_in import SignedInRequest
from learning_platform.api.pagination import PageNumberPagination
from notifications.selectors import unread_notification_count

_M = TypeVar("_M", bound=Model)
_R = TypeVar("_R")


class NotificationPagination(PageNumberPagination):
    """The project's page (`{count, next, previous, results}`) plus `unread_count`: how many of
    the learner's notifications are unread in all (not only on this page)."""

    def paginate_queryset(
        self,
        queryset: QuerySet[_M, _R] | Sequence[_R],
        request: Request,
        view: APIView | None = None,
    ) -> list[_R] | None:
        # The notification list, the one view paging with this, is for signed-in learners only.
        user = cast(SignedInRequest, request).user
        self.unread_count = unread_notification_count(user=user)
        return super().paginate_queryset(queryset, request, view)

    def get_paginated_response(self, data: Any) -> Response:
        response = super().get_paginated_response(data)
        response.data["unread_count"] = self.unread_count
        return response

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        schema = super().get_paginated_response_schema(schema)
        schema["properties"]["unread_count"] = {"type": "integer", "example": 3}
        schema["required"] = [*schema.get("required", []), "unread_count"]
        return schema
