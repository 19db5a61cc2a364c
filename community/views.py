"""HTTP endpoints of the community app: thin views over services and selectors."""

from __future__ import annotations

from typing import Any, cast

from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from accounts.signed_in import SignedInRequest
from community import selectors, services
from community.models import Comment, IssueReport
from community.serializers import (
    CommentEditSerializer,
    CommentInputSerializer,
    CommentSerializer,
    ReportInputSerializer,
    ReportSerializer,
    SubscriptionSerializer,
    ThreadSerializer,
)
from community.throttling import ReportAnonThrottle, ReportUserThrottle
from learning_platform import versioned
from learning_platform.api.query import QuerySerializer
from lessons.selectors import Lesson, get_visible_lesson, sees_drafts

# How long a cached first page of comments lives at most: bounds how long a commenter's new
# display name can take to show.
COMMENT_PAGE_TIMEOUT = 300


class ThreadQuerySerializer(QuerySerializer):
    ordering = serializers.ChoiceField(
        choices=["oldest", "newest"],
        default="oldest",
        help_text="Order of the threads: oldest first (default) or newest first.",
    )


# --- Comments -------------------------------------------------------------------------------


def _first_page_versions(slug: str) -> list[str]:
    return [versioned.CONTENT, selectors.discussion_version_key(slug)]


@versioned.cached(
    key=lambda *, slug: f"pages:comments:{slug}",
    versions=lambda *, slug: _first_page_versions(slug),
    timeout=COMMENT_PAGE_TIMEOUT,
)
def public_first_page(*, slug: str) -> tuple[dict[str, Any], list[Any]]:
    """The first page of threads in the default order as a signed-out reader sees it (URLs
    as paths), and each thread's and embedded reply's author id."""
    lesson = get_visible_lesson(slug=slug, user=None)
    threads = selectors.comment_threads(lesson_id=lesson.id)
    page = Paginator(threads, api_settings.PAGE_SIZE or 20).page(1)
    # DRF's stubs type the instance as one Comment: they do not model many=True's list.
    data = ThreadSerializer(page.object_list, many=True, context={}).data  # type: ignore[arg-type]
    author_ids = [
        # embedded_replies: the prefetch's to_attr (community.selectors.comment_threads).
        (thread.author_id, [reply.author_id for reply in thread.embedded_replies])  # type: ignore[attr-defined]
        for thread in page.object_list
    ]
    first_page = {"count": page.paginator.count, "has_next": page.has_next(), "results": data}
    return first_page, author_ids


# Signed out, the whole answer is the same for every reader of an origin (one of ALLOWED_HOSTS).
@versioned.cached(
    key=lambda *, slug, request: f"pages:comments-json:{slug}:{request.build_absolute_uri('/')}",
    versions=lambda *, slug, request: _first_page_versions(slug),
    timeout=COMMENT_PAGE_TIMEOUT,
)
def signed_out_first_page(*, slug: str, request: Request) -> bytes:
    return JSONRenderer().render(first_page_for(request, *public_first_page(slug=slug)))


def first_page_for(request: Request, data: dict[str, Any], author_ids: list[Any]) -> dict[str, Any]:
    """The cached first page with the requester's `is_author` flags and absolute URLs."""
    user_id = request.user.pk if request.user.is_authenticated else None
    results = []
    for thread, (author_id, reply_author_ids) in zip(data["results"], author_ids, strict=True):
        replies = [
            {**reply, "is_author": reply_author_id == user_id}
            for reply, reply_author_id in zip(thread["replies"], reply_author_ids, strict=True)
        ]
        results.append(
            {
                **thread,
                "is_author": author_id == user_id,
                "replies": replies,
                "replies_url": request.build_absolute_uri(thread["replies_url"]),
            }
        )
    url = request.build_absolute_uri()
    return {
        "count": data["count"],
        "next": replace_query_param(url, "page", 2) if data["has_next"] else None,
        "previous": None,
        "results": results,
    }


class LessonCommentsView(generics.ListAPIView[Comment]):
    """The discussion of a lesson: top-level comments, each with the start of its thread."""

    serializer_class = ThreadSerializer

    def get_throttles(self) -> list[BaseThrottle]:
        # Reading is free; posting is throttled per user ("comments" scope, 429 + Retry-After).
        if self.request.method == "POST":
            self.throttle_scope = "comments"
            return [ScopedRateThrottle()]
        return super().get_throttles()

    def get_queryset(self) -> QuerySet[Comment]:
        lesson = get_visible_lesson(slug=self.kwargs["slug"], user=self.request.user)
        query = ThreadQuerySerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        newest = query.validated_data["ordering"] == "newest"
        return selectors.comment_threads(lesson_id=lesson.id, newest_first=newest)

    @extend_schema(
        operation_id="lesson_comments_list",
        parameters=[ThreadQuerySerializer],
        description="Visible top-level comments of the lesson, paginated. Each embeds its "
        "first 3 replies (oldest first), `reply_count` and `replies_url` for the whole "
        "thread. Runs a fixed number of queries. Draft or unknown lesson: 404.",
    )
    # The signed-out first page is served as the cached bytes, a plain HttpResponse.
    def get(  # type: ignore[override]
        self, request: Request, *args: Any, **kwargs: Any
    ) -> HttpResponse:
        if request.query_params or sees_drafts(request.user):
            return super().get(request, *args, **kwargs)
        slug = self.kwargs["slug"]
        if request.user.is_authenticated:
            return Response(first_page_for(request, *public_first_page(slug=slug)))
        body = signed_out_first_page(slug=slug, request=request)
        return HttpResponse(body, content_type="application/json")

    @extend_schema(
        operation_id="lesson_comments_create",
        request=CommentInputSerializer,
        responses={201: CommentSerializer},
        description="Post a comment, or with `parent` a reply. Followers of the lesson and the "
        "author of the comment answered are notified (in-app, and by a digest e-mail). "
        "Throttled per learner.",
    )
    def post(self, request: SignedInRequest, slug: str) -> Response:
        lesson = get_visible_lesson(slug=slug, user=request.user)
        data = _valid(CommentInputSerializer, request)
        comment = services.post_comment(
            author=request.user, lesson=lesson, body=data["body"], parent_id=data.get("parent")
        )
        comment = selectors.get_visible_comment(pk=comment.pk, user=request.user)
        return Response(
            CommentSerializer(comment, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


class CommentDetailView(APIView):
    def get_throttles(self) -> list[BaseThrottle]:
        # Every edit renders Markdown: edits are throttled per learner ("comment_edits" scope,
        # 429 + Retry-After), as posting is; a changed character defeats the render cache.
        if self.request.method == "PATCH":
            self.throttle_scope = "comment_edits"
            return [ScopedRateThrottle()]
        return super().get_throttles()

    @extend_schema(responses={200: CommentSerializer})
    def get(self, request: Request, pk: int) -> Response:
        comment = selectors.get_visible_comment(pk=pk, user=request.user)
        return Response(CommentSerializer(comment, context={"request": request}).data)

    @extend_schema(
        request=CommentEditSerializer,
        responses={200: CommentSerializer},
        description="Edit your own comment (marks it edited). Someone else's: 403. A body "
        "without `body` changes nothing and answers the comment as it is. Deleted meanwhile "
        "(by a concurrent request): 404. Throttled per learner.",
    )
    def patch(self, request: SignedInRequest, pk: int) -> Response:
        comment = selectors.get_visible_comment(pk=pk, user=request.user)
        data = _valid(CommentEditSerializer, request, partial=True)
        if "body" in data:
            comment = services.edit_comment(comment=comment, editor=request.user, body=data["body"])
        else:
            services.check_author(comment=comment, user=request.user)
        return Response(CommentSerializer(comment, context={"request": request}).data)

    @extend_schema(
        request=None,
        responses={204: OpenApiResponse(description="Deleted.")},
        description='Delete your own comment. One with replies stays as "[deleted]". '
        "Already deleted (by a concurrent request): 404.",
    )
    def delete(self, request: SignedInRequest, pk: int) -> Response:
        comment = selectors.get_visible_comment(pk=pk, user=request.user)
        services.delete_comment(comment=comment, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(get=extend_schema(operation_id="comment_replies_list"))
class CommentRepliesView(generics.ListAPIView[Comment]):
    """Every visible reply in a thread, oldest first, paginated."""

    serializer_class = CommentSerializer

    def get_queryset(self) -> QuerySet[Comment]:
        parent = selectors.get_visible_thread(pk=self.kwargs["pk"], user=self.request.user)
        return selectors.thread_replies(parent=parent)


# --- Follows --------------------------------------------------------------------------------


class LessonSubscriptionView(APIView):
    """Follow a lesson's comments or not, overriding the profile default for this lesson."""

    permission_classes = [IsAuthenticated]

    def _answer(self, request: SignedInRequest, lesson: Lesson) -> Response:
        state = selectors.subscription_state(user=request.user, lesson=lesson)
        return Response(SubscriptionSerializer({"lesson": lesson.slug, **state}).data)

    @extend_schema(responses={200: SubscriptionSerializer})
    def get(self, request: SignedInRequest, slug: str) -> Response:
        return self._answer(request, get_visible_lesson(slug=slug, user=request.user))

    @extend_schema(
        request=None,
        responses={200: SubscriptionSerializer},
        description="Follow: be notified of new comments on this lesson.",
    )
    def put(self, request: SignedInRequest, slug: str) -> Response:
        lesson = get_visible_lesson(slug=slug, user=request.user)
        services.set_lesson_subscription(user=request.user, lesson=lesson, subscribed=True)
        return self._answer(request, lesson)

    @extend_schema(
        request=None,
        responses={200: SubscriptionSerializer},
        description="Stop following: no notifications about this lesson's comments, even "
        "replies to your own, whatever the profile default.",
    )
    def delete(self, request: SignedInRequest, slug: str) -> Response:
        lesson = get_visible_lesson(slug=slug, user=request.user)
        services.set_lesson_subscription(user=request.user, lesson=lesson, subscribed=False)
        return self._answer(request, lesson)


# --- Issue reports --------------------------------------------------------------------------


class LessonReportsView(APIView):
    """ "Spotted a bug or have feedback on this page? Report an issue." Signing in is optional."""

    permission_classes = [AllowAny]
    throttle_classes = [ReportAnonThrottle, ReportUserThrottle]

    @extend_schema(
        operation_id="lesson_reports_create",
        request=ReportInputSerializer,
        responses={201: ReportSerializer},
        description="Report an issue on a lesson. Signed out: strict throttle, optional "
        "`contact_email`. The `website` field is a honeypot: when filled in, the answer looks "
        "the same (201, `id` null) but nothing is stored.",
    )
    def post(self, request: Request, slug: str) -> Response:
        lesson = get_visible_lesson(slug=slug, user=request.user)
        data = _valid(ReportInputSerializer, request)
        report = services.submit_report(
            lesson=lesson,
            reporter=request.user if request.user.is_authenticated else None,
            kind=data["kind"],
            message=data["message"],
            block_id=data.get("block"),
            contact_email=data.get("contact_email", ""),
            honeypot=data.get("website", ""),
        )
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)


@extend_schema_view(get=extend_schema(operation_id="my_reports_list"))
class MyReportListView(generics.ListAPIView[IssueReport]):
    """The issue reports you filed, newest first, with their status."""

    permission_classes = [IsAuthenticated]
    request: SignedInRequest
    serializer_class = ReportSerializer

    def get_queryset(self) -> QuerySet[IssueReport]:
        return selectors.reports_for(user=self.request.user)


class MyReportDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: ReportSerializer},
        description="One of your reports. Anyone else's: 404.",
    )
    def get(self, request: SignedInRequest, pk: int) -> Response:
        report = selectors.get_report_for(user=request.user, pk=pk)
        return Response(ReportSerializer(report).data)


def _valid(
    serializer_class: type[serializers.Serializer[Any]], request: Request, *, partial: bool = False
) -> dict[str, Any]:
    # A body over DATA_UPLOAD_MAX_MEMORY_SIZE raises RequestDataTooBig here, which the API's
    # exception handler answers 413 payload_too_large.
    serializer = serializer_class(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    # DRF's stubs type validated_data as Any; a Serializer's is a dict once valid.
    return cast(dict[str, Any], serializer.validated_data)
