import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from achievements.models import Achievement, RuleKind
from achievements.tests.factories import AchievementFactory, AchievementUnlockFactory
from lessons.tests.factories import QuestFactory, TagFactory

pytestmark = pytest.mark.usefixtures("no_seed")


def _achievement(**fields) -> Achievement:
    return Achievement(slug="a", title="A", icon="trophy", **fields)


@pytest.mark.parametrize(
    "kind", [k for k in RuleKind if k not in (RuleKind.TAG_COMPLETED, RuleKind.QUEST_PERCENT)]
)
def test_clean_requires_a_threshold_for_counting_rules(kind):
    with pytest.raises(ValidationError) as error:
        _achievement(rule_kind=kind, threshold=None).full_clean()
    assert "threshold" in error.value.message_dict


def test_clean_requires_a_percentage_between_1_and_100_for_quest_percent():
    with pytest.raises(ValidationError) as error:
        _achievement(rule_kind=RuleKind.QUEST_PERCENT, threshold=101).full_clean()
    assert error.value.message_dict["threshold"] == ["A percentage is between 1 and 100."]


def test_clean_requires_an_existing_tag_for_the_tag_rule():
    with pytest.raises(ValidationError) as missing:
        _achievement(rule_kind=RuleKind.TAG_COMPLETED).full_clean()
    with pytest.raises(ValidationError) as unknown:
        _achievement(rule_kind=RuleKind.TAG_COMPLETED, tag_slug="no-such-tag").full_clean()
    assert missing.value.message_dict["tag_slug"] == ["The tag rule needs a tag."]
    assert unknown.value.message_dict["tag_slug"] == ["There is no tag 'no-such-tag'."]


def test_clean_clears_parameters_the_rule_kind_does_not_use():
    TagFactory(slug="attention")
    quest = QuestFactory()
    tag_rule = _achievement(
        rule_kind=RuleKind.TAG_COMPLETED, tag_slug="attention", threshold=5, quest=quest
    )
    xp_rule = _achievement(rule_kind=RuleKind.XP_TOTAL, threshold=5, tag_slug="x", quest=quest)

    tag_rule.full_clean()
    xp_rule.full_clean()

    assert (tag_rule.threshold, tag_rule.quest) == (None, None)
    assert (xp_rule.tag_slug, xp_rule.quest) == ("", None)


def test_quest_percent_keeps_its_quest():
    quest = QuestFactory()
    rule = _achievement(rule_kind=RuleKind.QUEST_PERCENT, threshold=50, quest=quest)

    rule.full_clean()

    assert rule.quest == quest


def test_database_rejects_a_counting_rule_without_threshold():
    with pytest.raises(IntegrityError):
        AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=None)


def test_database_rejects_a_tag_rule_without_tag():
    with pytest.raises(IntegrityError):
        AchievementFactory(rule_kind=RuleKind.TAG_COMPLETED, threshold=None, tag_slug="")


def test_database_rejects_a_percentage_over_100():
    with pytest.raises(IntegrityError):
        AchievementFactory(rule_kind=RuleKind.QUEST_PERCENT, threshold=150)


def test_a_learner_unlocks_an_achievement_at_most_once():
    unlock = AchievementUnlockFactory()

    with pytest.raises(IntegrityError):
        AchievementUnlockFactory(user=unlock.user, achievement=unlock.achievement)


def test_rule_summary_names_the_parameter(settings):
    assert AchievementFactory(threshold=10).rule_summary == "Lessons completed ≥ 10"
    assert (
        AchievementFactory(rule_kind=RuleKind.STREAK_DAYS, threshold=7).rule_summary
        == "Streak ≥ 7 days"
    )
    assert (
        AchievementFactory(rule_kind=RuleKind.QUEST_PERCENT, threshold=50).rule_summary
        == f"{settings.DEMO_QUEST_SLUG} ≥ 50%"
    )
    assert (
        AchievementFactory(
            rule_kind=RuleKind.TAG_COMPLETED, threshold=None, tag_slug="attention"
        ).rule_summary
        == "All lessons tagged 'attention'"
    )
