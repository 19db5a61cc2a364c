"""Drafts of live lessons: rewrite a published lesson without learners reading the rewrite.

A draft is a lesson row of its own (`Lesson.draft_of` → the live lesson, one per lesson), so
the whole admin edits it as any lesson: blocks, checks, links, tags, and (through the hooks
in lessons.events, answered by the apps above) its exercise. It is never published
(a database constraint), so no learner-facing read can return it. Publishing it copies its
content onto the live lesson in one transaction, as one new version of the live lesson (its
history records it, and reverting to the version before undoes it), then deletes the draft.
The live lesson keeps its id and slug, so progress, completions and comments stay attached;
its checks keep their blocks by key (as the curriculum loader keeps them), so learners'
answers and the XP paid for them stay attached too and nothing is paid twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from learning_platform import clock, history
from learning_platform.errors import Conflict, InvalidField, NotFound
from lessons import events
from lessons.blocks import EMPTY_BLOCK
from lessons.history import LessonVersion, changes_since
from lessons.models import Lesson
from lessons.services import _sync_blocks, _sync_links, _sync_tags

# What publishing a draft copies onto the live lesson. Not the slug (a draft's is its own),
# quest, position or publishing state: the live lesson keeps its place and its address.
COPIED_FIELDS = ("title", "summary", "estimated_minutes", "xp")


class DraftNotFound(NotFound):
    default_detail = "No such draft of a live lesson."


class NotLive(Conflict):
    default_detail = (
        "Only a published lesson gets a draft: learners do not read this one yet, edit it as it is."
    )


class LiveChangedSinceDraft(Conflict):
    """The live lesson was saved after the draft was made: publishing would undo that save."""

    def __init__(self, changes: list[LessonVersion]) -> None:
        self.changes = changes
        latest = changes[0] if changes else None
        who = (latest.by or latest.reason or "another editor") if latest else "another editor"
        when = f" at {latest.at:%Y-%m-%d %H:%M:%S} UTC" if latest else ""
        super().__init__(
            f"The live lesson was changed by {who}{when} since this draft was made. "
            "Nothing was published and the draft is kept: bring that change into the draft, "
            "or publish over it."
        )


def draft_slug(live: Lesson) -> str:
    """A draft's own address (slugs are unique): never shown to learners."""
    return f"draft-{live.pk}-{live.slug}"[:100].rstrip("-")


def make_live_draft(*, lesson_id: int) -> Lesson:
    """The draft of the published lesson: made as a copy of it (fields, tags, blocks, links),
    or the one it already has (one per lesson, whoever asks first). Raises DraftNotFound for
    no such lesson (or a draft), NotLive for a lesson learners do not read yet."""
    with transaction.atomic():
        live = (
            Lesson.objects.select_for_update()
            .filter(pk=lesson_id, draft_of__isnull=True)
            .select_related("quest")
            .first()
        )
        if live is None:
            raise DraftNotFound("No such lesson.")
        existing = Lesson.objects.filter(draft_of=live).first()
        if existing is not None:
            return existing
        if not live.is_published:
            raise NotLive()
        slug = draft_slug(live)
        if Lesson.objects.filter(slug=slug).exists():
            raise Conflict(f"Another lesson uses the slug {slug!r}, which the draft needs.")
        draft = Lesson(
            quest=live.quest,
            slug=slug,
            position=live.position,
            published=False,
            draft_of=live,
            draft_base_version=live.version,
            **{name: getattr(live, name) for name in COPIED_FIELDS},
        )
        with history.recorded_as(f"Draft of {live.slug} (version {live.version})"):
            draft.save()
            draft.tags.set(live.tags.all())
            _sync_blocks(draft, _block_specs(live))
            _sync_links(draft, _link_specs(live))
            events.live_draft_made.announce(
                events.LiveDraftMade(live_lesson_id=live.pk, draft_id=draft.pk)
            )
    return draft


def _block_specs(lesson: Lesson) -> list[dict[str, Any]]:
    return [
        {"kind": block.kind, **{name: getattr(block, name) for name in EMPTY_BLOCK}}
        for block in lesson.blocks.order_by("position", "id")
    ]


def _link_specs(lesson: Lesson) -> list[dict[str, str]]:
    return [
        {"title": link.title, "url": link.url} for link in lesson.links.order_by("position", "id")
    ]


def publish_live_draft(
    *, draft_id: int, overwrite: bool = False, scheduled: bool = False
) -> Lesson:
    """Put the draft's content on its live lesson, in one transaction, as one new version of
    the live lesson; then delete the draft. Returns the live lesson.

    Refused (LiveChangedSinceDraft, nothing written) when the live lesson was saved since the
    draft was made, unless `overwrite`. Raises DraftNotFound.
    """
    live_id = Lesson.objects.filter(pk=draft_id).values_list("draft_of_id", flat=True).first()
    if live_id is None:
        raise DraftNotFound()
    with transaction.atomic():
        # The live lesson first, as making a draft locks it: the two never wait on each other.
        live = Lesson.objects.select_for_update().filter(pk=live_id).first()
        draft = Lesson.objects.select_for_update().filter(pk=draft_id, draft_of=live_id).first()
        if live is None or draft is None:
            raise DraftNotFound()
        if not overwrite and live.version != draft.draft_base_version:
            raise LiveChangedSinceDraft(
                changes_since(lesson_id=live.pk, version=draft.draft_base_version or 0)
            )
        live.version += 1  # first: the rows the copy records belong to this version
        reason = f"Published the draft made from version {draft.draft_base_version}"
        with history.recorded_as(f"publish_at: {reason.lower()}" if scheduled else reason):
            for name in COPIED_FIELDS:
                setattr(live, name, getattr(draft, name))
            _sync_tags(live, list(draft.tags.values_list("slug", flat=True)))
            _sync_blocks(live, _block_specs(draft))
            _sync_links(live, _link_specs(draft))
            # Before the draft goes: what the apps above keep of it (its exercise) moves too.
            events.live_draft_published.announce(
                events.LiveDraftPublished(draft_id=draft.pk, live_lesson_id=live.pk)
            )
            live.save()  # last: its record closes the version, as in the admin
            draft.delete()
    return live


def schedule_live_draft(*, draft_id: int, at: datetime | None) -> Lesson:
    """Have the beat task publish the draft at `at` (None: no schedule). Raises DraftNotFound,
    or InvalidField for a time that has passed."""
    if at is not None and at <= clock.now():
        raise InvalidField("publish_at", "Pick a time to come, or publish the draft now.")
    updated = Lesson.objects.filter(pk=draft_id, draft_of__isnull=False).update(draft_publish_at=at)
    if not updated:
        raise DraftNotFound()
    return Lesson.objects.get(pk=draft_id)


def publish_due_live_drafts() -> tuple[int, list[int]]:
    """Publish the drafts whose time has come; returns how many, and the ids of those refused
    because their live lesson changed since (their schedule is dropped, so an editor sees it is
    not published and nothing retries it every minute). Idempotent."""
    due = list(
        Lesson.objects.filter(draft_publish_at__lte=clock.now()).values_list("id", flat=True)
    )
    published, refused = 0, []
    for draft_id in due:
        try:
            publish_live_draft(draft_id=draft_id, scheduled=True)
        except DraftNotFound:
            continue  # published or deleted meanwhile
        except LiveChangedSinceDraft:
            Lesson.objects.filter(pk=draft_id).update(draft_publish_at=None)
            refused.append(draft_id)
        else:
            published += 1
    return published, refused
