from datetime import date

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from achievements import selectors
from achievements.serializers import AchievementListOutputSerializer
from learning_platform import versioned
from learning_platform.api.conditional import (
    IF_NONE_MATCH,
    Page,
    conditional_response,
    page,
)
from progress.selectors import today_in
from progress.summary_cache import learner_version_key


def listing(*, user_id: int | None) -> Page:
    statuses = selectors.achievements_for_learner(user_id=user_id)
    data = {
        "count": len(statuses),
        "unlocked_count": sum(status["unlocked"] for status in statuses),
        "results": statuses,
    }
    return page(AchievementListOutputSerializer(data).data)


@versioned.cached(key=lambda: "pages:achievements", versions=lambda: [versioned.CONTENT])
def public_listing() -> Page:
    return listing(user_id=None)


# Streaks count days: the learner's date is part of the key.
@versioned.cached(
    key=lambda *, user_id, day: f"pages:achievements:{user_id}:{day.isoformat()}",
    versions=lambda *, user_id, day: [versioned.CONTENT, learner_version_key(user_id)],
)
def learner_listing(*, user_id: int, day: date) -> Page:
    return listing(user_id=user_id)


class AchievementListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="achievements_list",
        parameters=[IF_NONE_MATCH],
        responses=AchievementListOutputSerializer,
        description="Every achievement, in display order. For a signed-in learner, each says "
        "whether and when it was unlocked and the progress toward it (e.g. 3 of 10 lessons); "
        "for anonymous callers nothing is unlocked and progress is null.",
    )
    def get(self, request: Request) -> HttpResponse:
        user = request.user
        if not user.is_authenticated:
            return conditional_response(request, public_listing())
        day = today_in(user.tzinfo)
        return conditional_response(request, learner_listing(user_id=user.pk, day=day))
