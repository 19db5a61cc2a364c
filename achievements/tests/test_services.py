import pytest

from accounts.tests.factories import UserFactory
from achievements import services
from achievements.models import AchievementUnlock, RuleKind
from achievements.tests import metrics
from achievements.tests.factories import AchievementFactory, AchievementUnlockFactory
from lessons.tests.factories import LessonFactory
from progress.models import XPAward
from progress.selectors import xp_total

pytestmark = pytest.mark.usefixtures("no_seed", "frozen_clock")

THRESHOLDS = {
    RuleKind.LESSONS_COMPLETED: 3,
    RuleKind.QUEST_PERCENT: 50,
    RuleKind.XP_TOTAL: 100,
    RuleKind.STREAK_DAYS: 3,
    RuleKind.EXERCISES_PASSED: 2,
    RuleKind.COMMENTS_POSTED: 3,
    RuleKind.REPORTS_ACCEPTED: 2,
}


def _rule(kind: RuleKind, **fields):
    if kind == RuleKind.TAG_COMPLETED:
        return AchievementFactory(rule_kind=kind, threshold=None, tag_slug=metrics.TAG, **fields)
    return AchievementFactory(rule_kind=kind, threshold=THRESHOLDS[kind], **fields)


def _target(kind: RuleKind) -> int:
    return 3 if kind == RuleKind.TAG_COMPLETED else THRESHOLDS[kind]


def _unlocked(user, achievement) -> bool:
    return AchievementUnlock.objects.filter(user=user, achievement=achievement).exists()


@pytest.mark.parametrize("kind", list(RuleKind))
def test_a_rule_does_not_unlock_one_short_of_its_threshold(kind, user):
    achievement = _rule(kind)
    metrics.RAISE[kind](user, _target(kind) - 1)

    services.evaluate_achievements(user_id=user.id)

    assert not _unlocked(user, achievement)


@pytest.mark.parametrize("kind", list(RuleKind))
def test_a_rule_unlocks_at_its_threshold(kind, user):
    achievement = _rule(kind)
    metrics.RAISE[kind](user, _target(kind) - 1)
    services.evaluate_achievements(user_id=user.id)

    metrics.RAISE[kind](user, _target(kind))
    services.evaluate_achievements(user_id=user.id)

    assert _unlocked(user, achievement)


def test_evaluation_returns_the_newly_unlocked_achievements(user):
    _rule(RuleKind.COMMENTS_POSTED, slug="chatty", title="Chatty", xp_bonus=15)
    _rule(RuleKind.REPORTS_ACCEPTED)
    metrics.comments_posted(user, 3)

    unlocked = services.evaluate_achievements(user_id=user.id)

    assert unlocked == [{"slug": "chatty", "title": "Chatty", "xp_bonus": 15}]


def test_a_second_evaluation_unlocks_nothing_and_pays_nothing(user):
    achievement = _rule(RuleKind.COMMENTS_POSTED, xp_bonus=15)
    metrics.comments_posted(user, 3)
    services.evaluate_achievements(user_id=user.id)

    again = services.evaluate_achievements(user_id=user.id)

    assert again == []
    assert AchievementUnlock.objects.filter(user=user, achievement=achievement).count() == 1
    assert xp_total(user_id=user.id) == 15


def test_the_bonus_is_paid_once_through_the_ledger(user):
    achievement = _rule(RuleKind.COMMENTS_POSTED, xp_bonus=15)
    metrics.comments_posted(user, 3)

    services.evaluate_achievements(user_id=user.id)
    services.evaluate_achievements(user_id=user.id)

    award = XPAward.objects.get(user=user, source_type="achievement")
    assert (award.source_id, award.amount) == (achievement.id, 15)
    assert xp_total(user_id=user.id) == 15


def test_an_achievement_without_bonus_writes_no_ledger_row(user):
    _rule(RuleKind.COMMENTS_POSTED, xp_bonus=0)
    metrics.comments_posted(user, 3)

    services.evaluate_achievements(user_id=user.id)

    assert not XPAward.objects.filter(user=user).exists()


def test_an_unlock_that_already_exists_is_neither_recorded_nor_paid_again(user):
    # As when a concurrent evaluation inserted it between our read and our write.
    achievement = _rule(RuleKind.COMMENTS_POSTED, xp_bonus=15)
    AchievementUnlockFactory(user=user, achievement=achievement)

    assert services._unlock_many(user_id=user.id, achievements=[achievement]) == []
    assert not XPAward.objects.filter(user=user).exists()


def test_a_bonus_that_crosses_an_xp_threshold_unlocks_that_too(user):
    _rule(RuleKind.COMMENTS_POSTED, slug="chatty", xp_bonus=100)
    AchievementFactory(slug="centurion", rule_kind=RuleKind.XP_TOTAL, threshold=100, xp_bonus=5)
    metrics.comments_posted(user, 3)

    unlocked = services.evaluate_achievements(user_id=user.id)

    assert [a["slug"] for a in unlocked] == ["chatty", "centurion"]
    assert xp_total(user_id=user.id) == 105


def test_completing_a_lesson_evaluates_achievements(user):
    achievement = AchievementFactory(rule_kind=RuleKind.LESSONS_COMPLETED, threshold=1)

    metrics.complete_lessons(user, [LessonFactory()])

    assert _unlocked(user, achievement)


def test_inactive_achievements_are_not_unlocked(user):
    achievement = _rule(RuleKind.COMMENTS_POSTED, is_active=False)
    metrics.comments_posted(user, 3)

    services.evaluate_achievements(user_id=user.id)

    assert not _unlocked(user, achievement)


def test_a_tag_without_published_lessons_never_unlocks(user):
    achievement = _rule(RuleKind.TAG_COMPLETED)
    LessonFactory(tags=[metrics.TAG], published=False)

    services.evaluate_achievements(user_id=user.id)

    assert not _unlocked(user, achievement)


def test_a_draft_lesson_with_the_tag_is_not_required(user):
    achievement = _rule(RuleKind.TAG_COMPLETED)
    published = metrics.tag_lessons(2)
    LessonFactory(tags=[metrics.TAG], published=False)

    metrics.complete_lessons(user, published)
    services.evaluate_achievements(user_id=user.id)

    assert _unlocked(user, achievement)


def test_a_quest_percent_rule_can_name_another_quest(user):
    other = LessonFactory().quest
    achievement = AchievementFactory(rule_kind=RuleKind.QUEST_PERCENT, threshold=100, quest=other)
    metrics.demo_quest()

    metrics.complete_lessons(user, list(other.lessons.all()))
    services.evaluate_achievements(user_id=user.id)

    assert _unlocked(user, achievement)


def test_unlocks_are_per_learner(user):
    achievement = _rule(RuleKind.COMMENTS_POSTED)
    other = UserFactory()
    metrics.comments_posted(user, 3)
    metrics.comments_posted(other, 1)

    services.evaluate_achievements(user_id=user.id)
    services.evaluate_achievements(user_id=other.id)

    assert _unlocked(user, achievement)
    assert not _unlocked(other, achievement)


def test_evaluation_costs_one_query_per_metric_however_many_achievements(
    user, django_assert_max_num_queries
):
    # Three achievements of every kind, none reached yet.
    for kind in RuleKind:
        for step in range(3):
            if kind == RuleKind.TAG_COMPLETED:
                AchievementFactory(rule_kind=kind, threshold=None, tag_slug=f"tag-{step}")
            else:
                AchievementFactory(rule_kind=kind, threshold=98 + step)
    metrics.demo_quest()

    # achievements, then one each: lessons, demo quest, its percent, XP, streak, exercises,
    # comments, reports, the tags' lessons, completed lesson ids.
    with django_assert_max_num_queries(11):
        assert services.evaluate_achievements(user_id=user.id) == []


def test_evaluation_of_a_learner_holding_everything_costs_one_query(
    user, django_assert_num_queries
):
    for kind in RuleKind:
        AchievementUnlockFactory(user=user, achievement=_rule(kind))

    with django_assert_num_queries(1):
        services.evaluate_achievements(user_id=user.id)
