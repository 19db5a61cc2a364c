"""The learner's composite pages: the lesson page and the quest outline with the learner's
completion marks, each served from the page cache (learning_platform/page_cache.py)."""

from __future__ import annotations

from dataclasses import dataclass

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from learning_platform import page_cache
from learning_platform.api.cached_reads import ReadAheadMixin
from learning_platform.api.conditional import (
    IF_NONE_MATCH,
    NOT_MODIFIED,
    combined_etag,
    conditional_response,
)
from lessons.selectors import sees_drafts
from pages import selectors
from pages.serializers import LessonDetailSerializer, QuestDetailSerializer
from progress.selectors import percent_complete


@dataclass(frozen=True)
class PublicOutline:
    """A quest outline as anyone sees it (`completed`, `lessons_completed`, `percent_complete`
    null), rendered once, with what a learner's part is merged with: its lessons' ids, the
    outline's other fields and each lesson's own JSON."""

    page: page_cache.Page
    lesson_ids: list[int]
    head: dict  # the outline's fields before its list of lessons
    lessons: list[bytes]  # each ends with `"completed":null}`

    @classmethod
    def of(cls, data: dict, lesson_ids: list[int]) -> PublicOutline:
        render = JSONRenderer().render
        if list(data)[-1] != "lessons" or any(
            list(lesson)[-1] != "completed" for lesson in data["lessons"]
        ):
            raise ValueError("the outline's lessons, and each one's completed flag, come last")
        return cls(
            page=page_cache.page(data),
            lesson_ids=lesson_ids,
            head={key: value for key, value in data.items() if key != "lessons"},
            lessons=[render(lesson) for lesson in data["lessons"]],
        )

    def with_marks(self, flags: list[bool]) -> bytes:
        """The outline's JSON with the learner's `completed` flags and counts, byte for byte
        what the JSON renderer makes of the merged outline (its separators are compact).

        The public outline lists published lessons only (drafts take the uncached path), so
        the learner's count is the number of flags set."""
        done = sum(flags)
        head = JSONRenderer().render(
            {
                **self.head,
                "lessons_completed": done,
                "percent_complete": percent_complete(done=done, total=len(flags)),
            }
        )
        marked = (
            lesson[: -len(b"null}")] + (b"true}" if flag else b"false}")
            for lesson, flag in zip(self.lessons, flags, strict=True)
        )
        return head[:-1] + b',"lessons":[' + b",".join(marked) + b"]}"


# Each learner's merged outline, in this process: only ever a function of the public outline
# (its ETag) and the learner's completed ids, both part of the tag.
_merged_outlines = page_cache.LocalBodies(max_entries=256)


class QuestDetailView(ReadAheadMixin, APIView):
    permission_classes = [AllowAny]

    def read_ahead_keys(self, *, user_id: str | None) -> list[str]:
        learner = [page_cache.learner_version_key(user_id)] if user_id else []
        return [page_cache.CONTENT_VERSION_KEY, *learner]

    @extend_schema(
        tags=["quests"],
        operation_id="quests_retrieve",
        parameters=[IF_NONE_MATCH],
        responses={200: QuestDetailSerializer, 304: NOT_MODIFIED},
        description="The quest with its ordered lesson outline; for a signed-in learner, "
        "whether each lesson is completed.",
    )
    def get(self, request: Request, slug: str) -> Response:
        user = request.user
        if sees_drafts(user):
            return conditional_response(request, self.outline(slug=slug, user=user))
        public = page_cache.Part(
            key=f"pages:quest:{slug}",
            versions=[page_cache.CONTENT_VERSION_KEY],
            build=lambda: self.public_outline(slug=slug),
        )
        if not user.is_authenticated:
            [outline] = page_cache.fetch(public)
            return conditional_response(
                request, etag=outline.page.etag, build=lambda: outline.page.json
            )
        marks = page_cache.Part(
            key=f"pages:quest-marks:{slug}:{user.pk}",
            versions=[page_cache.learner_version_key(user.pk), page_cache.CONTENT_VERSION_KEY],
            build=lambda: self.completed_ids(slug=slug, user=user),
        )
        outline, completed = page_cache.fetch(public, marks)
        # The learner's part, merged onto the public outline (one flag per lesson); the
        # merged page is kept in process memory, tagged with exactly what it was merged from.
        merged = _merged_outlines.get(marks.key, (outline.page.etag, completed))
        if merged is None:
            flags = [lesson_id in completed for lesson_id in outline.lesson_ids]
            merged = page_cache.Page(
                json=outline.with_marks(flags), etag=combined_etag(outline.page.etag, flags)
            )
            _merged_outlines.put(marks.key, (outline.page.etag, completed), merged)
        return conditional_response(request, etag=merged.etag, build=lambda: merged.json)

    @staticmethod
    def outline(*, slug: str, user) -> dict:
        return QuestDetailSerializer(selectors.quest_outline(slug=slug, user=user)).data

    @staticmethod
    def public_outline(*, slug: str) -> PublicOutline:
        outline = selectors.public_quest_outline(slug=slug)
        return PublicOutline.of(QuestDetailSerializer(outline).data, outline["lesson_ids"])

    @staticmethod
    def completed_ids(*, slug: str, user) -> frozenset[int]:
        return selectors.completed_in_quest(slug=slug, user_id=user.pk)


class LessonDetailView(ReadAheadMixin, APIView):
    permission_classes = [AllowAny]

    def read_ahead_keys(self, *, user_id: str | None) -> list[str]:
        return self.versions(slug=self.kwargs["slug"])

    @staticmethod
    def versions(*, slug: str) -> list[str]:
        return [page_cache.CONTENT_VERSION_KEY, page_cache.discussion_version_key(slug)]

    @extend_schema(
        tags=["lessons"],
        operation_id="lessons_retrieve",
        parameters=[IF_NONE_MATCH],
        responses={200: LessonDetailSerializer, 304: NOT_MODIFIED},
        description="The whole lesson: blocks, links, its exercise if any, the comment count, "
        "and the previous and next lessons of its quest. Drafts answer 404 except to staff.",
    )
    def get(self, request: Request, slug: str) -> Response:
        user = request.user
        if sees_drafts(user):
            return conditional_response(request, self.lesson_data(slug=slug, user=user))
        # Everyone else sees the same published lesson: one cached body, tagged with the
        # content version and the lesson's discussion version (its comment count).
        [lesson] = page_cache.fetch(
            page_cache.Part(
                key=f"pages:lesson:{slug}",
                versions=self.versions(slug=slug),
                build=lambda: page_cache.page(self.lesson_data(slug=slug, user=None)),
            )
        )
        return conditional_response(request, etag=lesson.etag, build=lambda: lesson.json)

    @staticmethod
    def lesson_data(*, slug: str, user) -> dict:
        page = selectors.lesson_page(slug=slug, user=user)
        context = {
            "previous": page.previous,
            "next": page.next,
            "exercise": page.exercise,
            "comment_count": page.comment_count,
        }
        return LessonDetailSerializer(page.lesson, context=context).data
