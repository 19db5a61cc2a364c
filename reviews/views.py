from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.signed_in import SignedInRequest
from learning_platform import clock
from learning_platform.api.errors import PayloadTooLarge
from reviews import selectors, services
from reviews.serializers import (
    ReviewAnswerInputSerializer,
    ReviewQueueSerializer,
    ReviewResultSerializer,
    ReviewSummarySerializer,
    SyncReviewsInputSerializer,
    SyncReviewsResultSerializer,
)


class ReviewQueueView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_reviews",
        responses={200: ReviewQueueSerializer},
        description="The learner's due review cards, longest due first (at most "
        f"{selectors.QUEUE_LIMIT}), each with its check as the lesson shows it; `due` counts "
        "them all; when none is, `next_due_at` says when the next one comes due.",
    )
    def get(self, request: SignedInRequest) -> Response:
        queue = selectors.due_queue(user=request.user, now=clock.now())
        body = {**vars(queue.summary), "cards": queue.cards}
        return Response(ReviewQueueSerializer(body).data)


class ReviewSummaryView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_reviews_summary",
        responses={200: ReviewSummarySerializer},
        description='How many review cards are due now (the top bar\'s "5 to review") and '
        "when the next one comes due. One query.",
    )
    def get(self, request: SignedInRequest) -> Response:
        summary = selectors.review_summary(user=request.user, now=clock.now())
        return Response(ReviewSummarySerializer(summary).data)


class ReviewAnswersView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "check_answers"

    @extend_schema(
        operation_id="me_reviews_answer",
        request=ReviewAnswerInputSerializer,
        responses={
            200: ReviewResultSerializer,
            400: OpenApiResponse(description="The answer cannot be read."),
            404: OpenApiResponse(
                description="No such check (or its lesson is a draft), or no card: the check "
                "was never answered in its lesson."
            ),
            429: OpenApiResponse(description="Too many answers; `Retry-After` says when."),
        },
        description="Answer a review card: graded by the lesson's rules, with the same "
        "feedback. A due card is scheduled (FSRS: right is good, or easy when quick; wrong is "
        "again) and pays a little XP once a day; a card not due is graded only "
        "(`scheduled: false`).",
    )
    def post(self, request: SignedInRequest, check_id: int) -> Response:
        serializer = ReviewAnswerInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        outcome = services.answer_review(
            user=request.user,
            check_id=check_id,
            answer=data["answer"],
            duration_ms=data["duration_ms"],
            event_id=data["id"],
        )
        return Response(ReviewResultSerializer(outcome).data)


class SyncReviewsView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "sync"

    @extend_schema(
        operation_id="me_reviews_sync",
        request=SyncReviewsInputSerializer,
        responses={
            200: SyncReviewsResultSerializer,
            413: OpenApiResponse(description=f"More than {services.MAX_SYNCED_REVIEWS} answers."),
        },
        description="The reviews a device answered offline, graded and scheduled in the order "
        "they were answered, each as of its `answered_at`; sent again, an answer changes "
        "nothing. Each bad answer is rejected with a reason.",
    )
    def post(self, request: SignedInRequest) -> Response:
        answers = request.data.get("answers") if isinstance(request.data, dict) else None
        if isinstance(answers, list) and len(answers) > services.MAX_SYNCED_REVIEWS:
            raise PayloadTooLarge(f"At most {services.MAX_SYNCED_REVIEWS} answers in one request.")
        serializer = SyncReviewsInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        outcome = services.sync_reviews(
            user=request.user,
            device_id=serializer.validated_data["device_id"],
            answers=serializer.validated_data["answers"],
        )
        return Response(SyncReviewsResultSerializer(outcome).data)
