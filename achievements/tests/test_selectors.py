import pytest

from accounts.tests.factories import UserFactory
from achievements import selectors
from achievements.tests.factories import AchievementFactory, AchievementUnlockFactory

pytestmark = pytest.mark.usefixtures("no_seed")


@pytest.fixture
def held(user):
    """Three active achievements (two unlocked by `user`), one inactive one unlocked too."""
    first, second, _ = AchievementFactory.create_batch(3)
    AchievementUnlockFactory(user=user, achievement=first)
    AchievementUnlockFactory(user=user, achievement=second)
    AchievementUnlockFactory(user=user, achievement=AchievementFactory(is_active=False))
    AchievementUnlockFactory(user=UserFactory(), achievement=first)


def test_unlocked_and_total_answers_both_in_one_query(user, held, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert selectors.unlocked_and_total(user_id=user.id) == (2, 3)


def test_unlocked_and_total_for_a_newcomer(held, django_assert_num_queries):
    assert selectors.unlocked_and_total(user_id=UserFactory().id) == (0, 3)
