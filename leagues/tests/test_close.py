from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from accounts.tests.factories import UserFactory
from leagues import rules, services
from leagues.models import Cohort, Leaguer, Membership
from leagues.tests.factories import WEEK, CohortFactory, LeaguerFactory, MembershipFactory

AFTER_THE_WEEK = datetime(2026, 3, 16, 1, tzinfo=UTC)


def _cohort(*, tier: int, members: int, **fields) -> list[int]:
    """A cohort whose members have distinct XP; their user ids, best first."""
    cohort = CohortFactory(tier=tier, **fields)
    ranked = [MembershipFactory(cohort=cohort, xp=1000 - n) for n in range(members)]
    return [m.user_id for m in ranked]


def _tiers(user_ids: list[int]) -> list[int]:
    tiers = dict(Leaguer.objects.filter(user_id__in=user_ids).values_list("user_id", "tier"))
    return [tiers[u] for u in user_ids]


def _close_all() -> int:
    with time_machine.travel(AFTER_THE_WEEK, tick=False):
        return services.close_ended_cohorts()


def test_the_top_7_move_up_and_the_bottom_5_move_down(db):
    ranked = _cohort(tier=2, members=30)

    _close_all()

    assert _tiers(ranked) == [3] * 7 + [2] * 18 + [1] * 5


def test_the_top_10_move_up_from_the_lowest_tier_and_nobody_moves_down(db):
    ranked = _cohort(tier=0, members=30)

    _close_all()

    assert _tiers(ranked) == [1] * 10 + [0] * 20


def test_nobody_moves_up_from_the_highest_tier(db):
    ranked = _cohort(tier=4, members=30)

    _close_all()

    assert _tiers(ranked) == [4] * 25 + [3] * 5


def test_a_small_cohort_moves_up_first_and_down_only_from_those_left(db):
    ranked = _cohort(tier=1, members=9)

    _close_all()

    assert _tiers(ranked) == [2] * 7 + [0] * 2


def test_equal_xp_ranks_who_reached_it_first_higher(db):
    cohort = CohortFactory(tier=1)
    late = MembershipFactory(cohort=cohort, xp=50, reached_at=datetime(2026, 3, 12, tzinfo=UTC))
    early = MembershipFactory(cohort=cohort, xp=50, reached_at=datetime(2026, 3, 11, tzinfo=UTC))
    rest = [MembershipFactory(cohort=cohort, xp=40 - n) for n in range(11)]

    _close_all()

    # 13 members: 7 up, the last 5 down; the early one 1st, the late one 2nd.
    assert _tiers([early.user_id, late.user_id, rest[4].user_id, rest[5].user_id]) == [2, 2, 2, 1]


def test_a_cohort_stays_open_until_its_week_ended_in_its_westmost_zone(db):
    _cohort(tier=0, members=3, ends_at=datetime(2026, 3, 16, 5, tzinfo=UTC))  # New York

    assert _close_all() == 0
    assert Cohort.objects.get().closed_at is None


def test_a_cohort_whose_week_end_moved_later_is_not_closed_before_it(db):
    cohort = CohortFactory(ends_at=datetime(2026, 3, 16, 3, tzinfo=UTC))  # a member joined late

    with time_machine.travel(AFTER_THE_WEEK, tick=False):
        assert services.close_cohort(cohort_id=cohort.pk) is False


def test_closing_twice_gives_the_same_tiers(db):
    ranked = _cohort(tier=2, members=30)
    _close_all()
    first = _tiers(ranked)

    assert _close_all() == 0
    assert _tiers(ranked) == first


def test_a_close_killed_mid_way_and_run_again_equals_an_uninterrupted_one(db, monkeypatch):
    ranked = [_cohort(tier=tier, members=30) for tier in (0, 1, 2, 3, 4)]
    close = services.close_cohort
    closed = []

    def dies_after_two(*, cohort_id):
        if len(closed) == 2:
            raise SystemExit("killed")
        closed.append(close(cohort_id=cohort_id))
        return closed[-1]

    monkeypatch.setattr(services, "close_cohort", dies_after_two)
    with pytest.raises(SystemExit):
        _close_all()
    monkeypatch.undo()
    assert Cohort.objects.filter(closed_at__isnull=False).count() == 2

    _close_all()

    uninterrupted = [rules.tiers_after(tier=tier, members=30) for tier in (0, 1, 2, 3, 4)]
    assert [_tiers(users) for users in ranked] == uninterrupted
    assert not Cohort.objects.filter(closed_at__isnull=True).exists()


def test_the_close_records_each_members_tier_after_the_week(db):
    ranked = _cohort(tier=0, members=12)

    _close_all()

    after = dict(Membership.objects.values_list("user_id", "tier_after"))
    assert [after[u] for u in ranked] == [1] * 10 + [0] * 2


def test_idle_for_4_weeks_drops_a_tier_once(earn):
    learner = LeaguerFactory(tier=3, last_week=WEEK - timedelta(weeks=5)).user  # 4 idle weeks
    cohort = CohortFactory(tier=2)  # the learner's week: 7 ahead of them, 5 behind (they stay)
    for xp in [100] * 7 + [1] * 5:
        MembershipFactory(cohort=cohort, xp=xp)
    earn(learner, 10, datetime(2026, 3, 11, tzinfo=UTC))
    _close_all()

    earn(learner, 10, datetime(2026, 3, 18, tzinfo=UTC))

    weeks = Membership.objects.filter(user=learner).order_by("week")
    assert [m.cohort.tier for m in weeks] == [2, 2]


def test_idle_for_7_weeks_still_drops_one_tier(earn):
    learner = LeaguerFactory(tier=3, last_week=WEEK - timedelta(weeks=8)).user

    earn(learner, 10, datetime(2026, 3, 11, tzinfo=UTC))

    assert Leaguer.objects.get(user=learner).tier == 2


def test_idle_for_8_weeks_drops_two_tiers(earn):
    learner = LeaguerFactory(tier=3, last_week=WEEK - timedelta(weeks=9)).user

    earn(learner, 10, datetime(2026, 3, 11, tzinfo=UTC))

    assert Leaguer.objects.get(user=learner).tier == 1


def test_idle_for_3_weeks_keeps_the_tier(earn):
    learner = LeaguerFactory(tier=3, last_week=WEEK - timedelta(weeks=4)).user

    earn(learner, 10, datetime(2026, 3, 11, tzinfo=UTC))

    assert Leaguer.objects.get(user=learner).tier == 3


def test_a_new_learner_starts_in_the_lowest_tier(earn):
    learner = UserFactory()

    earn(learner, 10, datetime(2026, 3, 11, tzinfo=UTC))

    assert Leaguer.objects.get(user=learner).tier == rules.LOWEST
