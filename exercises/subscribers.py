"""How exercises answers the hooks of the apps below it. Subscribed in ExercisesConfig.ready()."""

from __future__ import annotations

from accounts import events as account_events
from exercises import personal_data
from exercises.services.content import restore_exercises
from exercises.services.live_drafts import copy_exercises_to_draft, publish_draft_exercises
from lessons import events


def restore_on_revert(event: events.LessonReverted) -> None:
    restore_exercises(lesson_id=event.lesson_id, as_of=event.as_of)


def copy_to_draft(event: events.LiveDraftMade) -> None:
    copy_exercises_to_draft(live_lesson_id=event.live_lesson_id, draft_id=event.draft_id)


def publish_from_draft(event: events.LiveDraftPublished) -> None:
    publish_draft_exercises(draft_id=event.draft_id, live_lesson_id=event.live_lesson_id)


def subscribe() -> None:
    events.lesson_reverted.subscribe(restore_on_revert)
    events.live_draft_made.subscribe(copy_to_draft)
    events.live_draft_published.subscribe(publish_from_draft)
    account_events.account_data_asked.subscribe(personal_data.export)
    account_events.account_purged.subscribe(personal_data.purge)
