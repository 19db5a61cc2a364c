"""How exercises answers the hooks of the apps below it. Subscribed in ExercisesConfig.ready()."""

from __future__ import annotations

from accounts import events as account_events
from exercises import personal_data
from exercises.services.content import restore_exercises
from lessons import events


def restore_on_revert(event: events.LessonReverted) -> None:
    restore_exercises(lesson_id=event.lesson_id, as_of=event.as_of)


def subscribe() -> None:
    events.lesson_reverted.subscribe(restore_on_revert)
    account_events.account_data_asked.subscribe(personal_data.export)
    account_events.account_purged.subscribe(personal_data.purge)
