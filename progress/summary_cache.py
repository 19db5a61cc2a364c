"""The progress page header (`/me/progress`), kept rendered in the shared cache, and the
learner's cache version that other apps' learner pages use too.

The header changes only when the learner's own progress does (the learner's version, bumped
after every committed progress write), when content it counts changes (the content version)
or at the learner's midnight (the streak: the learner's date is part of the key). After a move
east a run breaks at a midnight of the zone it was begun in (progress.streaks.streak_state), which
the key does not know: such a header may show the run alive until its entry expires
(versioned.DEFAULT_TIMEOUT, 10 minutes) or the learner's midnight comes.
"""

from __future__ import annotations

from django.conf import settings
from rest_framework.renderers import JSONRenderer

from learning_platform import versioned
from progress import selectors


def learner_version_key(user_id: int) -> str:
    return f"progress:learner-version:{user_id}"


def note_learner_changed(user_id: int) -> None:
    """The learner's progress changed: their cached pages are rebuilt on the next read."""
    versioned.bump(learner_version_key(user_id))


def note_learners_changed(user_ids: list[int]) -> None:
    """note_learner_changed for many learners, with one cache round trip after the commit."""
    versioned.bump(*(learner_version_key(user_id) for user_id in user_ids))


@versioned.cached(
    key=lambda *, user, quest_slug: (
        f"progress:summary:{user.pk}:{quest_slug or settings.DEMO_QUEST_SLUG}"
        f":{selectors.today_in(user.tzinfo).isoformat()}"
    ),
    versions=lambda *, user, quest_slug: [learner_version_key(user.pk), versioned.CONTENT],
    enabled=lambda: bool(settings.PROGRESS_SUMMARY_CACHE),
)
def summary_json(*, user: object, quest_slug: str | None) -> bytes:
    """The header for (user, quest), as the JSON renderer renders it (None: the demo quest)."""
    return JSONRenderer().render(selectors.progress_summary(user=user, quest_slug=quest_slug).body)
