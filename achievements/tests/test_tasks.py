import pytest

from accounts.tests.factories import UserFactory
from achievements import tasks
from achievements.models import AchievementUnlock, RuleKind
from achievements.tests import metrics
from achievements.tests.factories import AchievementFactory
from community.tests.factories import CommentFactory

pytestmark = pytest.mark.usefixtures("no_seed")


def _learners(comment_counts: list[int]) -> list[int]:
    ids = []
    for count in comment_counts:
        learner = UserFactory()
        CommentFactory.create_batch(count, author=learner)
        ids.append(learner.id)
    return ids


def test_the_walk_covers_every_batch(monkeypatch):
    achievement = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1)
    ids = _learners([1, 0, 1, 1, 0, 1, 1])
    batches = []
    original = tasks.services.award_achievement_to_batch

    def spy(**kwargs):
        batches.append(kwargs["after_user_id"])
        return original(**kwargs)

    monkeypatch.setattr(tasks.services, "award_achievement_to_batch", spy)

    tasks.award_retroactively.delay(achievement.id, 0, 2)

    assert batches == [0, ids[1], ids[3], ids[5]]
    assert set(achievement.unlocks.values_list("user_id", flat=True)) == {
        ids[0], ids[2], ids[3], ids[5], ids[6]
    }  # fmt: skip


def test_running_the_walk_twice_unlocks_nothing_twice():
    achievement = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1)
    _learners([1, 1, 1])

    tasks.award_retroactively(achievement.id, 0, 2)
    tasks.award_retroactively(achievement.id, 0, 2)

    assert AchievementUnlock.objects.filter(achievement=achievement).count() == 3


def test_a_batch_skips_learners_who_already_hold_it(django_assert_max_num_queries):
    achievement = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1)
    ids = _learners([1, 1, 1])
    AchievementUnlock.objects.bulk_create(
        AchievementUnlock(user_id=user_id, achievement=achievement) for user_id in ids
    )

    # The achievement, the batch of learners, who holds it; nobody is measured.
    with django_assert_max_num_queries(3):
        tasks.services.award_achievement_to_batch(achievement_id=achievement.id, batch_size=10)


def test_inactive_learners_are_skipped():
    achievement = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1)
    (learner_id,) = _learners([1])
    UserFactory._meta.model.objects.filter(id=learner_id).update(is_active=False)

    tasks.award_retroactively(achievement.id)

    assert not achievement.unlocks.exists()


def test_an_inactive_or_deleted_achievement_is_not_awarded():
    inactive = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1, is_active=False)
    _learners([1])

    tasks.award_retroactively(inactive.id)
    tasks.award_retroactively(999_999)

    assert not AchievementUnlock.objects.exists()


def test_evaluate_for_user_unlocks_what_the_learner_qualifies_for():
    achievement = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1)
    (learner_id,) = _learners([1])

    tasks.evaluate_for_user(learner_id)

    assert achievement.unlocks.filter(user_id=learner_id).exists()


def test_a_retroactive_bonus_reevaluates_the_learner():
    AchievementFactory(slug="centurion", rule_kind=RuleKind.XP_TOTAL, threshold=100)
    chatty = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1, xp_bonus=100)
    (learner_id,) = _learners([1])

    tasks.award_retroactively(chatty.id)

    assert set(
        AchievementUnlock.objects.filter(user_id=learner_id).values_list(
            "achievement__slug", flat=True
        )
    ) == {chatty.slug, "centurion"}


@pytest.mark.integration
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_real_worker_awards_an_achievement_retroactively(live_worker):
    from achievements.models import Achievement

    Achievement.objects.exclude(rule_kind=RuleKind.COMMENTS_POSTED).update(is_active=False)
    achievement = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1, xp_bonus=5)
    ids = _learners([1, 0, 2])

    tasks.award_retroactively.delay(achievement.id, 0, 2)

    live_worker.wait_for(lambda: achievement.unlocks.count() >= 2)
    assert set(achievement.unlocks.values_list("user_id", flat=True)) == {ids[0], ids[2]}, (
        live_worker.log()
    )


def test_a_batch_measures_all_its_learners_in_one_query(django_assert_num_queries):
    achievement = AchievementFactory(
        rule_kind=RuleKind.TAG_COMPLETED, threshold=None, tag_slug=metrics.TAG
    )
    metrics.tag_lessons(2)
    UserFactory.create_batch(20)

    # The achievement, the batch, its holders, the tag's lessons, and the batch's completed
    # lessons of the tag: however many learners (none qualifies, nothing is written).
    with django_assert_num_queries(5):
        tasks.services.award_achievement_to_batch(achievement_id=achievement.id, batch_size=50)


def test_a_batch_unlocks_and_pays_its_qualifying_learners_together(django_assert_num_queries):
    from progress.models import LearnerStats, XPAward

    achievement = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1, xp_bonus=7)
    qualifying = _learners([1] * 12)
    _learners([0] * 3)

    # The achievement, the batch, its holders, the comment counts; then the stats rows
    # (created and locked in one statement), the awards, the activity days, the totals, the
    # unlocks; then the achievements a bonus can reach (none here); then the league's
    # placements (leagues hears xp_paid: the learners' league rows, their insert, the cohorts
    # locked, the new cohort, the memberships): the same for 12 learners as for 500.
    with django_assert_num_queries(4 + 5 + 1 + 5):
        tasks.services.award_achievement_to_batch(achievement_id=achievement.id, batch_size=50)

    assert set(achievement.unlocks.values_list("user_id", flat=True)) == set(qualifying)
    assert XPAward.objects.filter(source_type="achievement", source_id=achievement.id).count() == 12
    totals = LearnerStats.objects.filter(user_id__in=qualifying).values_list("xp_total", flat=True)
    assert set(totals) == {7}
