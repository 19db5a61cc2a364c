"""How each kind of achievement rule is measured for one learner: one registry, one place.

`measure(achievement, metrics)` answers a `Measure(current, target)`; the learner qualifies when
`current >= target` (and there is something to reach: a tag with no lessons never unlocks).
Evaluation, the retroactive award and the API's "3 of 10" all go through it.

`LearnerMetrics` memoises every number it asks other apps for, so a learner costs one query per
metric (and per distinct quest) whatever the number of achievements; `Catalogue` holds what is
the same for every learner (the demo quest, the lessons of each tag), loaded once.

Other apps are read through their selectors only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar

from django.conf import settings

from achievements.models import Achievement, RuleKind
from community import selectors as community
from exercises import selectors as exercises
from lessons import selectors as lessons
from progress import selectors as progress

_T = TypeVar("_T")


class Progress(TypedDict):
    current: int
    target: int


@dataclass(frozen=True)
class Measure:
    current: int
    target: int

    @property
    def reached(self) -> bool:
        return self.target > 0 and self.current >= self.target

    def as_progress(self, *, unlocked: bool) -> Progress:
        """What the API shows: capped at the target, full once unlocked."""
        current = self.target if unlocked else min(self.current, self.target)
        return {"current": current, "target": self.target}


class Catalogue:
    """Learner-independent facts rules need (the demo quest, which lessons carry a tag),
    each loaded once and shared by every learner measured with it (a retroactive batch).

    `tag_slugs` names every tag that may be asked about, so their lessons load in one query.
    """

    def __init__(self, *, tag_slugs: Iterable[str] = ()) -> None:
        self._tag_slugs = {slug for slug in tag_slugs if slug}
        self._tag_lessons: dict[str, set[int]] = {}
        self._demo_quest_id: int | None = None
        self._demo_quest_loaded = False

    def demo_quest_id(self) -> int | None:
        if not self._demo_quest_loaded:
            self._demo_quest_id = lessons.quest_id(slug=settings.DEMO_QUEST_SLUG)
            self._demo_quest_loaded = True
        return self._demo_quest_id

    def lessons_tagged(self, tag_slug: str) -> set[int]:
        """Ids of the published lessons tagged `tag_slug`."""
        if tag_slug not in self._tag_lessons:
            self._tag_slugs.add(tag_slug)
            self._load_tags()
        return self._tag_lessons[tag_slug]

    def _load_tags(self) -> None:
        """Load the lessons of every named tag not loaded yet, in one query."""
        pending = self._tag_slugs - self._tag_lessons.keys()
        self._tag_lessons.update(lessons.published_lesson_ids_by_tag(tag_slugs=pending))


class LearnerMetrics:
    """The numbers rules are measured against, for one learner, each fetched at most once."""

    def __init__(self, *, user_id: int, catalogue: Catalogue) -> None:
        self.user_id = user_id
        self.catalogue = catalogue
        self._cache: dict[Any, Any] = {}

    def _memo(self, key: Any, compute: Callable[[], _T]) -> _T:
        if key not in self._cache:
            self._cache[key] = compute()
        value: _T = self._cache[key]  # what `compute` (or `preload`) gave for this key
        return value

    def preload(self, key: Any, value: Any) -> None:
        """A metric already read for a whole batch (see `metrics_for_learners`)."""
        self._cache[key] = value

    def forget_xp(self) -> None:
        """XP was just paid (an achievement bonus): XP and streak may have moved."""
        self._cache.pop("standing", None)

    def _standing(self) -> dict[str, Any]:
        return self._memo("standing", lambda: progress.standing_for_user(user_id=self.user_id))

    def lessons_completed(self) -> int:
        return self._memo(
            "lessons_completed", lambda: progress.count_completed_lessons(user_id=self.user_id)
        )

    def quest_percent(self, quest_id: int | None) -> int:
        quest_id = quest_id or self.catalogue.demo_quest_id()
        if quest_id is None:
            return 0
        return self._memo(
            ("quest_percent", quest_id),
            lambda: progress.quest_percent(user_id=self.user_id, quest_id=quest_id),
        )

    def xp_total(self) -> int:
        return int(self._standing()["xp_total"])

    def streak_days(self) -> int:
        return int(self._standing()["streak"]["current"])

    def exercises_passed(self) -> int:
        return self._memo(
            "exercises_passed", lambda: exercises.count_passed_exercises(user_id=self.user_id)
        )

    def comments_posted(self) -> int:
        return self._memo(
            "comments_posted", lambda: community.count_comments_posted(user_id=self.user_id)
        )

    def reports_accepted(self) -> int:
        return self._memo(
            "reports_accepted", lambda: community.count_accepted_reports(user_id=self.user_id)
        )

    def tag_lessons(self, tag_slug: str) -> Measure:
        """Of the published lessons tagged `tag_slug`: how many are done, out of how many."""
        lesson_ids = self.catalogue.lessons_tagged(tag_slug)
        if not lesson_ids:
            return Measure(current=0, target=0)
        completed = self._memo(
            "completed_lesson_ids", lambda: progress.completed_lesson_ids(user_id=self.user_id)
        )
        return Measure(current=len(lesson_ids & completed), target=len(lesson_ids))


Rule = Callable[[Achievement, "LearnerMetrics"], Measure]


def _threshold(current: Callable[[LearnerMetrics], int]) -> Rule:
    def measure(achievement: Achievement, metrics: LearnerMetrics) -> Measure:
        return Measure(current=current(metrics), target=achievement.threshold or 0)

    return measure


def _quest_percent(achievement: Achievement, metrics: LearnerMetrics) -> Measure:
    return Measure(
        current=metrics.quest_percent(achievement.quest_id), target=achievement.threshold or 0
    )


def _tag_completed(achievement: Achievement, metrics: LearnerMetrics) -> Measure:
    return metrics.tag_lessons(achievement.tag_slug)


RULES: dict[str, Rule] = {
    RuleKind.LESSONS_COMPLETED: _threshold(LearnerMetrics.lessons_completed),
    RuleKind.QUEST_PERCENT: _quest_percent,
    RuleKind.XP_TOTAL: _threshold(LearnerMetrics.xp_total),
    RuleKind.STREAK_DAYS: _threshold(LearnerMetrics.streak_days),
    RuleKind.EXERCISES_PASSED: _threshold(LearnerMetrics.exercises_passed),
    RuleKind.COMMENTS_POSTED: _threshold(LearnerMetrics.comments_posted),
    RuleKind.REPORTS_ACCEPTED: _threshold(LearnerMetrics.reports_accepted),
    RuleKind.TAG_COMPLETED: _tag_completed,
}


def measure(achievement: Achievement, metrics: LearnerMetrics) -> Measure:
    """Where the learner stands on the achievement's rule."""
    return RULES[achievement.rule_kind](achievement, metrics)


def metrics_for_learners(
    *, user_ids: list[int], achievements: Iterable[Achievement], catalogue: Catalogue
) -> dict[int, LearnerMetrics]:
    """LearnerMetrics for a batch of learners, with every metric the achievements' rules use
    read for the whole batch at once: one query per metric (and per quest), not per learner."""
    achievements = list(achievements)
    metrics = {u: LearnerMetrics(user_id=u, catalogue=catalogue) for u in user_ids}
    kinds = {a.rule_kind for a in achievements}

    def preload(key: Any, values: dict[int, Any], missing: Any = 0) -> None:
        for user_id, learner in metrics.items():
            learner.preload(key, values.get(user_id, missing))

    if not metrics:
        return metrics
    if kinds & {RuleKind.XP_TOTAL, RuleKind.STREAK_DAYS}:
        preload("standing", progress.standings_for_users(user_ids=user_ids))
    if RuleKind.LESSONS_COMPLETED in kinds:
        preload("lessons_completed", progress.count_completed_lessons_by_user(user_ids=user_ids))
    if RuleKind.EXERCISES_PASSED in kinds:
        preload("exercises_passed", exercises.count_passed_exercises_by_user(user_ids=user_ids))
    if RuleKind.COMMENTS_POSTED in kinds:
        preload("comments_posted", community.count_comments_posted_by_user(user_ids=user_ids))
    if RuleKind.REPORTS_ACCEPTED in kinds:
        preload("reports_accepted", community.count_accepted_reports_by_user(user_ids=user_ids))
    quests = {
        a.quest_id or catalogue.demo_quest_id()
        for a in achievements
        if a.rule_kind == RuleKind.QUEST_PERCENT
    }
    for quest_id in quests:
        if quest_id is None:  # no quest named and no demo quest
            continue
        percents = progress.quest_percents_by_user(user_ids=user_ids, quest_id=quest_id)
        preload(("quest_percent", quest_id), percents)
    tagged = set().union(
        *(
            catalogue.lessons_tagged(a.tag_slug)
            for a in achievements
            if a.rule_kind == RuleKind.TAG_COMPLETED and a.tag_slug
        )
    )
    if tagged:
        completed = progress.completed_lesson_ids_by_user(user_ids=user_ids, lesson_ids=tagged)
        preload("completed_lesson_ids", completed, set())
    return metrics
