from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from achievements import selectors
from achievements.serializers import AchievementListOutputSerializer
from learning_platform.api.conditional import IF_NONE_MATCH, NOT_MODIFIED, conditional_response


class AchievementListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["achievements"],
        operation_id="achievements_list",
        parameters=[IF_NONE_MATCH],
        responses={200: AchievementListOutputSerializer, 304: NOT_MODIFIED},
        description="Every achievement, in display order. For a signed-in learner, each says "
        "whether and when it was unlocked and the progress toward it (e.g. 3 of 10 lessons); "
        "for anonymous callers nothing is unlocked and progress is null.",
    )
    def get(self, request: Request) -> Response:
        user_id = request.user.id if request.user.is_authenticated else None
        statuses = selectors.achievements_for_learner(user_id=user_id)
        data = AchievementListOutputSerializer(
            {
                "count": len(statuses),
                "unlocked_count": sum(status["unlocked"] for status in statuses),
                "results": statuses,
            }
        ).data
        return conditional_response(request, data)
