from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.signed_in import SignedInRequest
from leagues import rules, selectors, services
from leagues.serializers import (
    MyLeagueSerializer,
    ParticipationSerializer,
    ResultSeenSerializer,
)


class MyLeagueView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_league_retrieve",
        responses={200: MyLeagueSerializer},
        description="The learner's weekly league: their tier and, once their first XP of the "
        "week placed them (`placed`), their cohort of at most "
        f"{rules.COHORT_SIZE} ranked by XP earned this week (equal XP: who reached it first), "
        "others shown by public name only. At the week's end the members up to "
        "`promotion_line` move up a tier and those from `demotion_line` on move down. The week "
        "is the calendar week of the learner's days; `ends_at` is its end in their zone.",
    )
    def get(self, request: SignedInRequest) -> Response:
        league = selectors.my_league(user_id=request.user.pk, time_zone=request.user.time_zone)
        return Response(MyLeagueSerializer(league).data)


class ParticipationView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_league_participation_update",
        request=ParticipationSerializer,
        responses={200: ParticipationSerializer},
        description="Leave the leagues (`participating: false`: the learner is placed in no "
        "cohort and taken off this week's list) or join them again (placed at once with the "
        "XP of their latest week if it has not ended where they live, else with their next XP).",
    )
    def put(self, request: SignedInRequest) -> Response:
        body = ParticipationSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.set_participation(
            user_id=request.user.pk, participating=body.validated_data["participating"]
        )
        return Response({"participating": body.validated_data["participating"]})


class ResultSeenView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_league_result_seen_create",
        request=ResultSeenSerializer,
        responses={
            204: None,
            404: OpenApiResponse(description="No closed result of the learner's for that week."),
        },
        description="The learner saw the result of a closed week (`week`: its Monday, as "
        "`GET /me/league`'s `result.week` says it): no device shows it again. Idempotent. 404 "
        "`league_result_not_found` when the learner has no closed result for that week.",
    )
    def post(self, request: SignedInRequest) -> Response:
        body = ResultSeenSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.mark_result_seen(user_id=request.user.pk, week=body.validated_data["week"])
        return Response(status=204)
