from django.core.exceptions import RequestDataTooBig
from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from accounts.signed_in import SignedInRequest
from exercises import selectors
from exercises.models import Submission
from exercises.serializers import (
    CheckAnswerInputSerializer,
    CheckResultSerializer,
    CheckRevealSerializer,
    ExerciseDetailSerializer,
    LessonCheckStandingsSerializer,
    StartedLessonsSerializer,
    SubmissionAcceptedSerializer,
    SubmissionDetailSerializer,
    SubmissionInputSerializer,
    SubmissionListItemSerializer,
    SyncAnswersInputSerializer,
    SyncAnswersResultSerializer,
)
from exercises.services import checks as check_services
from exercises.services import submissions
from learning_platform.api.errors import PayloadTooLarge
from lessons import selectors as lesson_selectors

NOT_FOUND = OpenApiResponse(description="No such exercise (or its lesson is a draft).")


class ExerciseDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="exercises_retrieve",
        responses={200: ExerciseDetailSerializer, 404: NOT_FOUND},
        description="The exercise: its prompt, the columns it asks for (with the headers "
        "accepted for each), how many distinct known models a passing table needs, the pass "
        "mark, its XP, whether the learner passed it (null when signed out), and the names "
        "of the models the grader knows.",
    )
    def get(self, request: Request, exercise_id: int) -> Response:
        exercise = selectors.get_exercise(exercise_id=exercise_id, user=request.user)
        passed = (
            selectors.has_passed(user_id=request.user.id, exercise_id=exercise.id)
            if request.user.is_authenticated
            else None
        )
        context = {"passed": passed, "known_models": selectors.known_model_names()}
        return Response(ExerciseDetailSerializer(exercise, context=context).data)


class ExerciseSubmissionsView(GenericAPIView[Submission]):
    permission_classes = [IsAuthenticated]
    request: SignedInRequest
    serializer_class = SubmissionListItemSerializer
    throttle_scope = "submissions"

    def get_throttles(self) -> list[BaseThrottle]:
        # Only submitting is limited; reading one's attempts is not.
        return [ScopedRateThrottle()] if self.request.method == "POST" else []

    def get_queryset(self) -> QuerySet[Submission]:
        return selectors.submissions_for_learner(
            user_id=self.request.user.id, exercise_id=self.kwargs["exercise_id"]
        )

    @extend_schema(
        operation_id="exercises_submissions_list",
        responses={200: SubmissionListItemSerializer(many=True), 404: NOT_FOUND},
        description="The learner's own attempts at this exercise, newest first, each with "
        "its score, status and, once graded, its per-cell `feedback` (as `GET "
        "/submissions/{id}/` answers it, without `content` and `notes`): the latest attempt "
        "survives a reload. `expected_revealed` says whether the cells' expected values are "
        "shown (once the learner has passed); a cell that is missing, unreadable or wrong "
        "carries its column's `hint` when the exercise's editor wrote one.",
    )
    def get(self, request: SignedInRequest, exercise_id: int) -> Response:
        selectors.check_exercise_visible(exercise_id=exercise_id, user=request.user)
        page = self.paginate_queryset(self.get_queryset())
        context = {
            "hints": selectors.column_hints(exercise_id=exercise_id),
            "learner_passed": selectors.has_passed(
                user_id=request.user.id, exercise_id=exercise_id
            ),
        }
        data = SubmissionListItemSerializer(page, many=True, context=context).data
        return self.get_paginated_response(data)

    @extend_schema(
        operation_id="exercises_submissions_create",
        request=SubmissionInputSerializer,
        parameters=[
            OpenApiParameter(
                "Location",
                OpenApiTypes.URI,
                OpenApiParameter.HEADER,
                response=[202],
                description="The submission to poll: `GET /submissions/{id}/`.",
            )
        ],
        responses={
            202: SubmissionAcceptedSerializer,
            400: OpenApiResponse(
                description="The table cannot be graded, and `errors.content` says why in a "
                "sentence for the learner: not readable in the given format, binary data or "
                "control characters, more than 200 rows or 32 columns, a row longer than "
                "the header, a cell over 500 characters, JSON nested too deeply, or a "
                "spreadsheet formula (`=HYPERLINK(...)`)."
            ),
            404: NOT_FOUND,
            413: OpenApiResponse(description="`content` is larger than 64 KiB."),
            429: OpenApiResponse(description="Too many submissions; see `Retry-After`."),
        },
        description="Submit a table for grading. Answers 202 at once with the submission's "
        "id, `status: queued` and its `url` (also in the `Location` header); a worker grades "
        "it within seconds (poll that `GET /submissions/{id}/`). Headers are matched in any case, spacing or punctuation, "
        "by their config.json names too (`hidden_size`, `n_embd`, `num_hidden_layers`, ...), "
        "in any order; extra columns are ignored; numbers may be written 4096, 4,096, 4 096 "
        "or 4096.0; rows shorter than the header have empty (missing) cells. JSON: a list "
        'of objects, or `{"columns": [...], "rows": [[...]]}`. Throttled per learner.',
    )
    def post(self, request: SignedInRequest, exercise_id: int) -> Response:
        try:
            data = request.data
        except RequestDataTooBig:
            raise PayloadTooLarge(
                "The request body is too large; tables are limited to 64 KiB."
            ) from None
        exercise = selectors.get_exercise(exercise_id=exercise_id, user=request.user)
        serializer = SubmissionInputSerializer(data=data)
        serializer.is_valid(raise_exception=True)
        values = serializer.validated_data
        submission = submissions.submit_solution(
            user_id=request.user.id,
            exercise=exercise,
            table_format=values["format"],
            content=values["content"],
            notes=values["notes"],
        )
        # Whatever a worker did meanwhile, the answer is the state at submission time.
        data = SubmissionAcceptedSerializer(submission, context={"request": request}).data
        # str(): the field is DRF's Hyperlink, a str subclass that WSGI servers refuse as a header.
        return Response(data, status=202, headers={"Location": str(data["url"])})


class SubmissionDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="submissions_retrieve",
        responses={
            200: SubmissionDetailSerializer,
            404: OpenApiResponse(description="No such submission of yours."),
        },
        description="One of the learner's submissions: `status` (queued, grading, graded, "
        "invalid), `score` (0 to 1), `passed`, `xp_awarded`, a `summary` sentence (for "
        "`invalid`, the reason), and once graded the `feedback`: for each submitted row the "
        "catalogue model it matched (or null) and a verdict per cell, with the column's "
        "`hint` on a cell that is missing, unreadable or wrong. Expected values are shown "
        "once the learner has passed the exercise (`expected_revealed`). Other learners' "
        "submissions: 404.",
    )
    def get(self, request: SignedInRequest, submission_id: int) -> Response:
        submission = selectors.get_own_submission(
            submission_id=submission_id, user_id=request.user.id
        )
        context = {"hints": selectors.column_hints(exercise_id=submission.exercise_id)}
        return Response(SubmissionDetailSerializer(submission, context=context).data)


# --- Checks ------------------------------------------------------------------------------------

CHECK_NOT_FOUND = OpenApiResponse(description="No such check (or its lesson is a draft).")


class CheckAnswersView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "check_answers"

    @extend_schema(
        operation_id="checks_answer",
        request=CheckAnswerInputSerializer,
        responses={
            200: CheckResultSerializer,
            400: OpenApiResponse(description="The answer cannot be read (not counted as a try)."),
            404: CHECK_NOT_FOUND,
            429: OpenApiResponse(description="Too many answers; `Retry-After` says when."),
        },
        description="Grade an answer to one of a lesson's checks, at once. Signed in, the "
        "answer is recorded: the check's first right answer pays its share of the lesson's XP "
        "(none once revealed), and the lesson is completed when every check is passed. "
        "Signed out, the answer is graded and not recorded (`tries` 0, `lesson` null): the "
        "device keeps it and sends it with `POST /me/checks/sync` at sign-in.",
    )
    def post(self, request: Request, check_id: int) -> Response:
        serializer = CheckAnswerInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        answer = serializer.validated_data["answer"]
        if request.user.is_authenticated:
            outcome = check_services.answer_check(
                user=request.user, check_id=check_id, answer=answer
            )
        else:
            outcome = check_services.grade_answer(check_id=check_id, answer=answer)
        return Response(CheckResultSerializer(outcome).data)


class CheckRevealView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "check_answers"

    @extend_schema(
        operation_id="checks_reveal",
        request=None,
        responses={
            200: CheckRevealSerializer,
            404: CHECK_NOT_FOUND,
            409: OpenApiResponse(
                description="`reveal_not_allowed`: fewer wrong tries than the check's "
                "`reveal_after`."
            ),
        },
        description="The check's answer and its explanation. Signed in, after `reveal_after` "
        "wrong tries; the check then pays no XP. Signed out, the device counts the tries and "
        "marks the answers it syncs later as revealed.",
    )
    def post(self, request: Request, check_id: int) -> Response:
        reveal = check_services.reveal_check(user=request.user, check_id=check_id)
        return Response(CheckRevealSerializer(reveal).data)


class LessonCheckStandingsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_lesson_checks",
        responses={200: LessonCheckStandingsSerializer, 404: OpenApiResponse()},
        description="Where the learner stands with each of the lesson's checks, in order.",
    )
    def get(self, request: SignedInRequest, slug: str) -> Response:
        lesson = lesson_selectors.get_lesson(slug=slug, user=request.user)
        standings = selectors.lesson_check_standings(user_id=request.user.id, lesson_id=lesson.pk)
        return Response(LessonCheckStandingsSerializer({"lesson": slug, "checks": standings}).data)


class StartedLessonsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_lessons_started",
        responses={200: StartedLessonsSerializer},
        description="The lessons the learner has started (answered a check of), for the quest "
        "outline's done / started / untouched marks; done ones are in `/me/progress`.",
    )
    def get(self, request: SignedInRequest) -> Response:
        started = selectors.started_lesson_slugs(user_id=request.user.id)
        return Response(StartedLessonsSerializer({"started": started}).data)


class SyncAnswersView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "sync"

    @extend_schema(
        operation_id="me_checks_sync",
        request=SyncAnswersInputSerializer,
        responses={
            200: SyncAnswersResultSerializer,
            413: OpenApiResponse(
                description=f"More than {check_services.MAX_SYNCED_ANSWERS} answers."
            ),
        },
        description="The answers a device kept (signed out or offline), graded again by the "
        "server: only right answers pay, once per check, however often they are sent and "
        "from however many devices. Each bad answer is rejected with a reason.",
    )
    def post(self, request: SignedInRequest) -> Response:
        answers = request.data.get("answers") if isinstance(request.data, dict) else None
        if isinstance(answers, list) and len(answers) > check_services.MAX_SYNCED_ANSWERS:
            raise PayloadTooLarge(
                f"At most {check_services.MAX_SYNCED_ANSWERS} answers in one request."
            )
        serializer = SyncAnswersInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        outcome = check_services.sync_answers(
            user=request.user,
            device_id=serializer.validated_data["device_id"],
            answers=serializer.validated_data["answers"],
        )
        return Response(SyncAnswersResultSerializer(outcome).data)
