import threading

import pytest
from django.db import connection

from accounts.tests.factories import UserFactory
from achievements import services
from achievements.models import AchievementUnlock, RuleKind
from achievements.tests import metrics
from achievements.tests.factories import AchievementFactory
from progress.models import XPAward
from progress.selectors import xp_total


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_simultaneous_evaluations_unlock_and_pay_once(monkeypatch):
    # given: no seeded achievements, one the learner qualifies for
    from achievements.models import Achievement

    Achievement.objects.all().delete()
    achievement = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1, xp_bonus=15)
    learner = UserFactory()
    metrics.comments_posted(learner, 1)
    # Both evaluations decide to unlock before either writes.
    both_decided = threading.Barrier(2, timeout=10)
    original_unlock = services._unlock_many

    def unlock_together(**kwargs):
        both_decided.wait()
        return original_unlock(**kwargs)

    monkeypatch.setattr(services, "_unlock_many", unlock_together)
    results: list = []

    def evaluate():
        try:
            results.append(services.evaluate_achievements(user_id=learner.id))
        except Exception as error:  # surfaced by the assertion below
            results.append(error)
        finally:
            connection.close()

    # when
    threads = [threading.Thread(target=evaluate) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    # then
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(map(len, results)) == [0, 1]
    assert AchievementUnlock.objects.filter(achievement=achievement).count() == 1
    assert XPAward.objects.filter(user=learner, source_type="achievement").count() == 1
    assert xp_total(user_id=learner.id) == 15
