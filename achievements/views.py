from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from achievements import selectors
from achievements.serializers import AchievementListOutputSerializer
from learning_platform.api.conditional import IF_NONE_MATCH, conditional_response
from progress.selectors import today_in


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
            return conditional_response(request, selectors.public_listing())
        day = today_in(user.tzinfo)
        return conditional_response(request, selectors.learner_listing(user_id=user.pk, day=day))
