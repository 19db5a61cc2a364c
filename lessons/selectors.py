"""Reads of quests and lessons, with the visibility rule: staff see drafts, others only published."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict, TypeVar, cast

from django.db import connection
from django.db.models import (
    BooleanField,
    Count,
    ExpressionWrapper,
    F,
    Field,
    Model,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)

from accounts.models import Requester
from learning_platform import clock
from learning_platform.errors import NotFound
from lessons.models import Block as Block  # public: the type these reads return
from lessons.models import Lesson as Lesson  # public: the type these reads return
from lessons.models import Link, Tag, published_q
from lessons.models import Quest as Quest  # public: the type these reads return
from lessons.models import sees_drafts as sees_drafts  # public: who sees drafts, for other apps

RowT = TypeVar("RowT", bound=Model)


class LessonNotFound(NotFound):
    """No lesson with that slug, or a draft asked for by someone who does not see drafts."""


class QuestNotFound(NotFound):
    pass


def visible_lessons(
    *, user: Requester | None = None, live_drafts: bool = False
) -> QuerySet[Lesson]:
    return Lesson.objects.visible_to(user, live_drafts=live_drafts)


def lesson_list(
    *,
    user: Requester | None = None,
    quest: str | None = None,
    tag: str | None = None,
    search: str | None = None,
) -> QuerySet[Lesson]:
    """Lessons visible to `user`, filtered by quest slug, tag slug and a title/summary search."""
    lessons = (
        visible_lessons(user=user)
        .select_related("quest")
        .prefetch_related(Prefetch("tags", queryset=Tag.objects.only("slug")))
        .order_by("quest__title", "quest_id", "position", "id")
    )
    if quest:
        lessons = lessons.filter(quest__slug=quest)
    if tag:
        lessons = lessons.filter(tags__slug=tag)
    if search:
        lessons = lessons.filter(Q(title__icontains=search) | Q(summary__icontains=search))
    return lessons


def get_lesson(*, slug: str, user: Requester | None = None) -> Lesson:
    """The whole lesson (quest, tags, blocks, links) in a fixed number of queries; raises
    LessonNotFound."""
    lessons = (
        visible_lessons(user=user, live_drafts=True)  # staff preview a draft on its own page
        .select_related("quest", "draft_of")
        .prefetch_related(
            Prefetch("tags", queryset=Tag.objects.only("slug")),
            Prefetch("blocks", queryset=Block.objects.order_by("position", "id")),
            Prefetch("links", queryset=Link.objects.order_by("position", "id")),
        )
    )
    try:
        return lessons.get(slug=slug)
    except Lesson.DoesNotExist:
        raise LessonNotFound("No such lesson.") from None


def renamed_lesson_slug(*, slug: str, user: Requester | None = None) -> str | None:
    """The slug now of the lesson that had `slug` before a rename, if `user` may see it
    (None otherwise): where its old address redirects (1 query)."""
    lessons = visible_lessons(user=user).filter(old_slugs__old_slug=slug)
    return lessons.values_list("slug", flat=True).first()


def lesson_slug(*, lesson_id: int) -> str | None:
    return Lesson.objects.filter(pk=lesson_id).values_list("slug", flat=True).first()


def lesson_slugs(*, lesson_ids: Iterable[int] | QuerySet[Any, Any]) -> list[str]:
    return list(Lesson.objects.filter(pk__in=lesson_ids).values_list("slug", flat=True))


class LessonSummary(TypedDict):
    id: int
    slug: str
    title: str


def lesson_summary(*, lesson_id: int) -> LessonSummary | None:
    """{"id", "slug", "title"} of any lesson, drafts included (None when there is none)."""
    return Lesson.objects.filter(pk=lesson_id).values("id", "slug", "title").first()


def get_visible_lesson(*, slug: str, user: Requester | None = None) -> Lesson:
    """Just the lesson row, for commands on a lesson (complete, comment, report); raises
    LessonNotFound."""
    try:
        return visible_lessons(user=user).get(slug=slug)
    except Lesson.DoesNotExist:
        raise LessonNotFound("No such lesson.") from None


@dataclass(frozen=True)
class Neighbour:
    slug: str
    title: str


@dataclass(frozen=True)
class Place:
    """Where a lesson stands in its quest among the lessons a reader may see."""

    previous: Neighbour | None
    next: Neighbour | None
    number: int | None  # 1-based rank in the quest's order (None: the reader cannot see it)


def lesson_place(*, lesson: Lesson, user: Requester | None = None) -> Place:
    """Previous and next lesson in the quest's order, and the lesson's number in it (computed
    from the order, never the typed position), among the lessons `user` may see (1 query)."""
    siblings = list(
        visible_lessons(user=user)
        .filter(quest_id=lesson.quest_id)
        .order_by("position", "id")
        .values_list("id", "slug", "title")
    )
    ids = [row[0] for row in siblings]
    try:
        index = ids.index(lesson.id)
    except ValueError:
        return Place(previous=None, next=None, number=None)
    previous = Neighbour(*siblings[index - 1][1:]) if index > 0 else None
    following = Neighbour(*siblings[index + 1][1:]) if index + 1 < len(siblings) else None
    return Place(previous=previous, next=following, number=index + 1)


def next_publish_at() -> datetime | None:
    """When the next scheduled lesson appears (None: none is scheduled)."""
    return (
        Lesson.objects.filter(published=False, publish_at__gt=clock.now())
        .order_by("publish_at")
        .values_list("publish_at", flat=True)
        .first()
    )


def due_lesson_ids() -> list[int]:
    """Unpublished lessons whose "publish at" has come."""
    return list(
        Lesson.objects.filter(published=False, publish_at__lte=clock.now()).values_list(
            "id", flat=True
        )
    )


def quest_list() -> QuerySet[Quest]:
    return Quest.objects.order_by("title", "id")


def get_quest(*, slug: str) -> Quest:
    try:
        return Quest.objects.get(slug=slug)
    except Quest.DoesNotExist:
        raise QuestNotFound("No such quest.") from None


def quest_outline(*, quest: Quest, user: Requester | None = None) -> dict[str, Any]:
    """The quest and its lessons in order, as `user` may see them (drafts for staff), each
    with its `number` (1-based, from the order) and grouped into `units`: runs of consecutive
    lessons under one unit's title (null: lessons in no unit). The learner's part
    (`lessons_completed`, `percent_complete`, each lesson's `completed`) is null: content
    knows nothing of who read it (pages fills it in). Two queries."""
    lessons = list(
        visible_lessons(user=user)
        .filter(quest=quest)
        .select_related("unit")
        .prefetch_related(Prefetch("tags", queryset=Tag.objects.only("slug")))
        .order_by("position", "id")
        .only(
            "id",
            "slug",
            "title",
            "estimated_minutes",
            "xp",
            "position",
            "published",
            "publish_at",
            "quest_id",
            "unit__title",
        )
    )
    return {
        "slug": quest.slug,
        "title": quest.title,
        "description": quest.description,
        "lesson_count": len(lessons),
        "lessons_completed": None,
        "percent_complete": None,
        "lesson_ids": [lesson.id for lesson in lessons],
        "published_lesson_ids": [lesson.id for lesson in lessons if lesson.is_published],
        "units": unit_runs(lessons),
        "lessons": [
            {
                "slug": lesson.slug,
                "number": number,
                "title": lesson.title,
                "estimated_minutes": lesson.estimated_minutes,
                "xp": lesson.xp,
                "tags": [tag.slug for tag in lesson.tags.all()],
                "published": lesson.is_published,
                "completed": None,
            }
            for number, lesson in enumerate(lessons, start=1)
        ],
    }


class UnitRun(TypedDict):
    title: str | None
    lessons: list[str]


def unit_runs(lessons: list[Lesson]) -> list[UnitRun]:
    """The lessons (in order, their units selected) as runs under one unit each: a new run
    starts where the unit changes. The outline's saves keep a unit's lessons together, so each
    unit is one run; a unit set by hand on lessons apart shows where they are."""
    runs: list[UnitRun] = []
    current: object = object()  # no unit id is this: the first lesson starts a run
    for lesson in lessons:
        if lesson.unit_id != current:
            current = lesson.unit_id
            runs.append({"title": lesson.unit.title if lesson.unit else None, "lessons": []})
        runs[-1]["lessons"].append(lesson.slug)
    return runs


# --- For the editors' analytics (insights): every lesson, drafts included ------------------


class QuestHeading(TypedDict):
    id: int
    title: str
    slug: str


def quest_heading(*, quest_id: int) -> QuestHeading:
    """The quest's id, title and slug (1 query); raises QuestNotFound."""
    try:
        return Quest.objects.values("id", "title", "slug").get(pk=quest_id)
    except Quest.DoesNotExist:
        raise QuestNotFound("No such quest.") from None


class QuestLessonRow(TypedDict):
    id: int
    title: str
    position: int
    published: bool


def quest_lesson_rows(*, quest_id: int, published_only: bool = False) -> list[QuestLessonRow]:
    """Every lesson of the quest in order (only what learners see when `published_only`):
    id, title, position, published (1 query)."""
    lessons = Lesson.objects.published() if published_only else Lesson.objects.live()
    return list(
        lessons.filter(quest_id=quest_id)
        .order_by("position", "id")
        .values("id", "title", "position", "published")
    )


def lesson_quest_id(*, lesson_id: int) -> int:
    """The id of the lesson's quest, drafts included (1 query); raises LessonNotFound."""
    try:
        return Lesson.objects.values_list("quest_id", flat=True).get(pk=lesson_id)
    except Lesson.DoesNotExist:
        raise LessonNotFound("No such lesson.") from None


def lesson_with_quest(*, lesson_id: int) -> Lesson | None:
    """The lesson, drafts included, with its quest (1 query); None when there is none."""
    return Lesson.objects.select_related("quest").filter(pk=lesson_id).first()


# --- Reads for the apps above lessons (progress, achievements) ---------------------------------
# Querysets returned here compose into the caller's query (a filter, an annotation, a
# subquery), so reading through them costs no extra statement.


def published_lessons() -> QuerySet[Lesson]:
    """Every published lesson, whoever asks (learners complete only these)."""
    return Lesson.objects.published()


class PublishedLesson(TypedDict):
    id: int
    xp: int
    checks: int


def check_count() -> Count:
    """How many checks a lesson asks: an annotation over lessons."""
    return Count("blocks", filter=Q(blocks__kind="check"))


def published_lesson(*, slug: str) -> PublishedLesson | None:
    """{"id", "xp", "checks"} of the published lesson with this slug, or None (1 query)."""
    return (
        published_lessons()
        .filter(slug=slug)
        .annotate(checks=check_count())
        .values("id", "xp", "checks")
        .first()
    )


class CheckOfLesson(TypedDict):
    id: int
    lesson_id: int
    quest_id: int
    lesson_slug: str
    lesson_xp: int
    spec: dict[str, Any]
    # A check of a draft of a live lesson (staff previewing it): graded, never recorded or paid.
    in_live_draft: bool


def check_of_lesson(*, check_id: int, user: Requester | None = None) -> CheckOfLesson | None:
    """The check (a block of kind "check") with this id, in a lesson `user` may read (1 query)."""
    row = (
        Block.objects.filter(
            pk=check_id,
            kind="check",
            lesson__in=Lesson.objects.visible_to(user, live_drafts=True).values("pk"),
        )
        .values(
            "id",
            "lesson_id",
            "spec",
            lesson_slug=F("lesson__slug"),
            lesson_xp=F("lesson__xp"),
            in_live_draft=ExpressionWrapper(
                Q(lesson__draft_of__isnull=False), output_field=BooleanField()
            ),
        )
        .annotate(quest_id=F("lesson__quest_id"))
        .first()
    )
    return cast(CheckOfLesson | None, row)


def with_visible_checks(
    rows: QuerySet[RowT], *, user: Requester | None, check: str, lesson: str, fields: Iterable[str]
) -> QuerySet[RowT]:
    """Another app's rows that name a check (the relation `check`) and its lesson (`lesson`),
    kept when that is a check in a lesson `user` may read (`visible_lessons`' rule), each read
    with `fields` of its own and what the check and its lesson show. One statement of joins, no
    subquery: a read of a learner's few rows by its own index checks just those rows."""
    # What a check shows of itself (lessons.serializers.block_data), and of its lesson.
    shown = [f"{check}__{name}" for name in ("id", "kind", "markdown", "html", "spec")]
    shown += [f"{lesson}__slug", f"{lesson}__title"]
    rows = rows.filter(**{f"{check}__kind": Block.Kind.CHECK}).select_related(check, lesson)
    rows = rows.only(*fields, check, lesson, *shown)
    return rows if sees_drafts(user) else rows.filter(published_q(lesson))


def lesson_check_ids(*, lesson_id: int) -> list[int]:
    """The ids of the lesson's checks, in the lesson's order (1 query)."""
    return list(
        Block.objects.filter(lesson_id=lesson_id, kind="check")
        .order_by("position", "id")
        .values_list("id", flat=True)
    )


def lesson_checks(*, lesson_id: int) -> list[tuple[int, dict[str, Any]]]:
    """(id, spec) of the lesson's checks, in the lesson's order (1 query)."""
    return list(
        Block.objects.filter(lesson_id=lesson_id, kind="check")
        .order_by("position", "id")
        .values_list("id", "spec")
    )


def check_share(*, lesson_xp: int, check_ids: list[int], check_id: int) -> int:
    """The check's share of its lesson's XP: equal shares, the remainder to the first ones."""
    count = len(check_ids)
    index = check_ids.index(check_id)
    return lesson_xp // count + (1 if index < lesson_xp % count else 0)


def published_lesson_count(*, quest_id: int) -> int:
    """How many published lessons the quest has (1 query)."""
    return published_lessons().filter(quest_id=quest_id).count()


def lesson_rows(*, slugs: Iterable[str], **annotations: Any) -> QuerySet[Lesson, dict[str, Any]]:
    """{"id", "slug", "xp", "published", *annotations} of the lessons (drafts included) with
    these slugs; `annotations` are the caller's expressions over each lesson (`OuterRef("pk")`
    is the lesson), computed in the same query."""
    rows: QuerySet[Lesson, dict[str, Any]] = (
        Lesson.objects.filter(slug__in=set(slugs))
        .annotate(**annotations)
        .values("id", "slug", "xp", "published", *annotations)
    )
    return rows


def lesson_ids_with_slug(*, slug: str) -> list[int]:
    """The id of the lesson with this slug, as a list (empty: none; 1 query)."""
    return list(Lesson.objects.filter(slug=slug).values_list("id", flat=True))


def quest_id(*, slug: str) -> int | None:
    """The id of the quest with this slug, or None (1 query)."""
    return Quest.objects.filter(slug=slug).values_list("id", flat=True).first()


def quest_exists(*, slug: str) -> bool:
    """(1 query)"""
    return Quest.objects.filter(slug=slug).exists()


def tag_exists(*, slug: str) -> bool:
    """(1 query)"""
    return Tag.objects.filter(slug=slug).exists()


def published_lesson_ids_by_tag(*, tag_slugs: Iterable[str]) -> dict[str, set[int]]:
    """{tag slug: ids of its published lessons} for each of these tags (1 query)."""
    tagged: dict[str, set[int]] = {slug: set() for slug in tag_slugs}
    rows = Lesson.tags.through.objects.filter(
        tag__slug__in=tagged, lesson__published=True
    ).values_list("tag__slug", "lesson_id")
    for slug, lesson_id in rows:
        tagged[slug].add(lesson_id)
    return tagged


@functools.cache
def sql_names() -> dict[str, str]:
    """Table and column names of lessons and quests, quoted, for another app's plain SQL on its
    hottest reads (where compiling the ORM's query costs more than running it)."""
    quote = connection.ops.quote_name
    names = {"lesson": quote(Lesson._meta.db_table), "quest": quote(Quest._meta.db_table)}
    for model, prefix, fields in (
        (Lesson, "lesson", ("id", "slug", "quest", "position", "published")),
        (Quest, "quest", ("id", "slug")),
    ):
        for name in fields:
            field = model._meta.get_field(name)
            assert isinstance(field, Field)  # its own column, not a relation
            assert field.column
            names[f"{prefix}_{name}"] = quote(field.column)
    return names


def lesson_ids(
    *, quest_id: int | None = None, quest_slug: str | None = None, published_only: bool = False
) -> QuerySet[Lesson, Any]:
    """Ids of the lessons (drafts included unless `published_only`), optionally of one quest (by
    id or slug): a subquery for the caller's filter (`lesson_id__in=`)."""
    lessons = published_lessons() if published_only else Lesson.objects.all()
    if quest_id is not None:
        lessons = lessons.filter(quest_id=quest_id)
    if quest_slug is not None:
        lessons = lessons.filter(quest__slug=quest_slug)
    return lessons.values("id")


def slug_of(lesson_id: Any) -> Subquery:
    """The slug of the lesson `lesson_id` (an expression, e.g. `OuterRef("lesson_id")`), as a
    subquery expression in the caller's query."""
    return Subquery(Lesson.objects.filter(pk=lesson_id).values("slug")[:1])
