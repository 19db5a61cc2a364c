from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.signed_in import SignedInRequest
from learning_platform.api.conditional import IF_NONE_MATCH, conditional_response, rendered_page
from progress import selectors, services, summary_cache
from progress.cursors import InvalidCursor, decode_cursor
from progress.selectors.pages import level_curve_page
from progress.serializers import (
    CalendarSerializer,
    CompletionOutputSerializer,
    DailyGoalInputSerializer,
    LeaderboardBoundsSerializer,
    LeaderboardOutputSerializer,
    LeaderboardQuerySerializer,
    LevelCurveSerializer,
    ProgressQuerySerializer,
    ProgressSummarySerializer,
    SyncInputSerializer,
    SyncResultSerializer,
)

NOT_FOUND = OpenApiResponse(description="No such (published) resource.")
# Editors change the curve rarely; a browser or CDN may reuse it this long before asking again.
LEVEL_CURVE_MAX_AGE = 300
_BOUNDS = LeaderboardBoundsSerializer()


class LevelCurveView(APIView):
    # The same for everyone: no session is read, so the answer varies by nothing.
    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="levels_list",
        parameters=[IF_NONE_MATCH],
        responses=LevelCurveSerializer,
        description="The level curve: every level's number, name and the total XP that "
        "reaches it, lowest first. The same for every caller (a signed-out app computes its "
        f"header from it): `Cache-Control: public, max-age={LEVEL_CURVE_MAX_AGE}` with an "
        "ETag. Editors change the curve in the admin.",
    )
    def get(self, request: Request) -> HttpResponse:
        return conditional_response(request, level_curve_page(), public_max_age=LEVEL_CURVE_MAX_AGE)


class CompleteLessonView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="lessons_complete",
        request=None,
        responses={
            201: CompletionOutputSerializer,
            200: OpenApiResponse(
                CompletionOutputSerializer,
                description="Already completed: nothing changed, `xp_awarded` is 0.",
            ),
            404: NOT_FOUND,
            409: OpenApiResponse(
                description="`checks_required`: the lesson has checks; answering them completes it."
            ),
        },
        description="Mark a published lesson completed. The first call records it (201), pays "
        "its XP and answers the level before and after and the achievements it unlocked; a "
        "repeat answers 200 with `xp_awarded: 0`. Drafts and unknown lessons: 404. A lesson "
        "with checks is completed by answering them: 409 `checks_required`.",
    )
    def post(self, request: SignedInRequest, slug: str) -> Response:
        outcome = services.complete_lesson(user=request.user, lesson_slug=slug)
        return Response(
            CompletionOutputSerializer(outcome).data, status=201 if outcome.created else 200
        )


class MyProgressView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_progress_retrieve",
        parameters=[ProgressQuerySerializer, IF_NONE_MATCH],
        responses={200: ProgressSummarySerializer, 404: NOT_FOUND},
        description="The progress page header in one answer: level, XP and the XP to the next "
        "level, lessons completed of the quest, achievements, streak, completed lesson slugs.",
    )
    def get(self, request: SignedInRequest) -> HttpResponse:
        quest_slug = None
        if request.query_params:  # without any, nothing to validate: the demo quest
            query = ProgressQuerySerializer(data=request.query_params)
            query.is_valid(raise_exception=True)
            quest_slug = query.validated_data.get("quest")
        # None: the demo quest, which reads as empty until the curriculum is loaded.
        body = summary_cache.summary_json(user=request.user, quest_slug=quest_slug)
        # The selector builds exactly the documented body; copying it through the serializer
        # would only cost time on the hottest read of the API. Kept rendered: the bytes the
        # JSON renderer makes of it, sent as they are, with their ETag.
        return conditional_response(request, rendered_page(body))


class SyncProgressView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "sync"

    @extend_schema(
        operation_id="me_progress_sync",
        parameters=[ProgressQuerySerializer],
        request=SyncInputSerializer,
        responses={
            200: SyncResultSerializer,
            404: NOT_FOUND,
            413: OpenApiResponse(
                description=f"More than {services.MAX_SYNC_EVENTS} events in one request."
            ),
        },
        description="Merge a device's offline events and answer the merged state (the body of "
        "`/me/progress`), the events rejected with a reason each, and a new `cursor`. With the "
        "previous `cursor`, `changes` lists what other devices added since. Completions are a "
        "grow-only set, the earliest time wins, XP is the server's: resending is harmless.",
    )
    def post(self, request: SignedInRequest) -> Response:
        events = request.data.get("events") if isinstance(request.data, dict) else None
        if isinstance(events, list) and len(events) > services.MAX_SYNC_EVENTS:
            raise services.TooManyEvents()  # before validating a body this large
        query = ProgressQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        quest_slug = query.validated_data.get("quest")
        serializer = SyncInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        after_seq = None
        if data.get("cursor"):
            try:
                after_seq = decode_cursor(data["cursor"])
            except InvalidCursor:
                # Not one this server can read (forged, or made before a key rotation): the
                # device gets every change, as it would from the start.
                after_seq = 0
        if quest_slug is not None and not selectors.quest_exists(slug=quest_slug):
            raise selectors.QuestNotFound()

        outcome = services.sync_progress(
            user=request.user, device_id=data["device_id"], events=data["events"]
        )

        state = selectors.state_after_sync(
            user=request.user,
            device_id=data["device_id"],
            quest_slug=quest_slug,
            after_seq=after_seq,
        )
        body = {
            **state,
            "rejected": outcome.rejected,
            "new_achievements": outcome.new_achievements,
        }
        return Response(SyncResultSerializer(body).data)


class LeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="leaderboard_retrieve",
        parameters=[LeaderboardQuerySerializer],
        responses=LeaderboardOutputSerializer,
        description="The top 50 learners by XP earned in the period (week: the calendar week, "
        "Monday to Sunday, holding the caller's today; month: its calendar month; all: all "
        "time), and the caller's own rank (`me`, null when signed out). XP counts on the day "
        "it was earned on its learner's clock; the period's bounds are on the caller's "
        "(`since`, `ends_at`; UTC when signed out). Equal XP, equal rank. Learners who opted "
        "out (`show_on_leaderboard`) are not listed.",
    )
    def get(self, request: Request) -> Response:
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        viewer = request.user if request.user.is_authenticated else None
        board = selectors.leaderboard(period=query.validated_data["period"], viewer=viewer)
        # The selector builds the documented body (plain ints, strings and booleans) but for
        # the bounds; 50 entries through nested serializers cost more than the board's reads.
        return Response({**board, **_BOUNDS.to_representation(board)})


class DailyGoalView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_daily_goal_update",
        request=DailyGoalInputSerializer,
        responses={200: DailyGoalInputSerializer},
        description="Choose the XP a day to aim for (10, 20, 30 or 50; null clears it). Progress "
        "toward it shows in `/me/progress` as `daily_goal`, counted in the learner's time zone.",
    )
    def put(self, request: SignedInRequest) -> Response:
        goal = DailyGoalInputSerializer(data=request.data)
        goal.is_valid(raise_exception=True)
        services.set_daily_goal(
            user_id=request.user.pk,
            time_zone=request.user.time_zone,
            xp=goal.validated_data["xp"],
        )
        return Response({"xp": goal.validated_data["xp"]})


class CalendarView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_calendar_retrieve",
        responses={200: CalendarSerializer},
        description=f"The learner's last {selectors.CALENDAR_WEEKS} weeks of activity, for a "
        "heatmap: XP per day and whether the daily goal was met, each award on the learner's day "
        "stored when it was paid.",
    )
    def get(self, request: SignedInRequest) -> Response:
        calendar = selectors.activity_calendar(
            user_id=request.user.pk, time_zone=request.user.time_zone
        )
        return Response(CalendarSerializer(calendar).data)
