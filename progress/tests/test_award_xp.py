"""award_xp: the awards, the stats rows and the learners' standings after them."""

from datetime import UTC, date, datetime

import pytest
import time_machine
from django.db.models import Sum

from progress import events, selectors, services
from progress.models import ActivityDay, LearnerDayXP, LearnerStats, XPAward

pytestmark = pytest.mark.django_db


def award_at(user, at: datetime, *, source_id: int, source_type: str = "exercise", amount=10):
    with time_machine.travel(at, tick=False):
        award = services.Award(user.id, source_type, source_id, amount)
        return services.award_xp(awards=[award]).get(award.key)


def test_a_first_award_creates_the_stats_row_and_returns_the_standing(user):
    standing = award_at(user, datetime(2024, 1, 10, 12, tzinfo=UTC), source_id=1, amount=60)

    assert standing == services.StandingAfterAward(
        xp_total=60, streak_current=1, exercises_passed=1
    )
    stats = LearnerStats.objects.get(pk=user.pk)
    assert (stats.xp_total, stats.streak_best, stats.last_active_day) == (60, 1, date(2024, 1, 10))
    assert list(ActivityDay.objects.filter(user=user).values_list("day", flat=True)) == [
        date(2024, 1, 10)
    ]


def test_a_source_pays_once(user):
    award_at(user, datetime(2024, 1, 10, 12, tzinfo=UTC), source_id=1)

    assert award_at(user, datetime(2024, 1, 10, 13, tzinfo=UTC), source_id=1) is None
    assert XPAward.objects.filter(user=user).count() == 1
    assert LearnerStats.objects.get(pk=user.pk).xp_total == 10


def test_the_streak_runs_on_the_learners_days_and_restarts_after_a_gap(user):
    user.time_zone = "Asia/Tokyo"  # 15:30 UTC is the next day there
    user.save()
    award_at(user, datetime(2024, 1, 10, 14, 30, tzinfo=UTC), source_id=1)
    second = award_at(user, datetime(2024, 1, 10, 15, 30, tzinfo=UTC), source_id=2)
    same_day = award_at(user, datetime(2024, 1, 10, 16, 30, tzinfo=UTC), source_id=3)
    after_a_gap = award_at(user, datetime(2024, 1, 14, 1, tzinfo=UTC), source_id=4)

    assert (second.streak_current, same_day.streak_current) == (2, 2)
    assert (after_a_gap.streak_current, after_a_gap.exercises_passed) == (1, 4)
    stats = LearnerStats.objects.get(pk=user.pk)
    assert (stats.streak_best, stats.last_active_day) == (2, date(2024, 1, 14))


def test_a_day_before_the_last_active_one_counts_the_runs_again(user):
    user.time_zone = "Asia/Tokyo"
    user.save()
    award_at(user, datetime(2024, 1, 10, 15, 30, tzinfo=UTC), source_id=1)  # Jan 11 in Tokyo
    user.time_zone = "America/Los_Angeles"
    user.save()

    # Offline activity synced late: Jan 10 in Los Angeles, before Jan 11 began in Tokyo (15:00
    # UTC), so before the last active day and next to it
    with time_machine.travel(datetime(2024, 1, 10, 20, tzinfo=UTC), tick=False):
        award = services.Award(user.id, "exercise", 2, 10, datetime(2024, 1, 10, 14, tzinfo=UTC))
        standing = services.award_xp(awards=[award])[award.key]

    assert standing.streak_current == 2
    stats = LearnerStats.objects.get(pk=user.pk)
    assert (stats.streak_best, stats.last_active_day) == (2, date(2024, 1, 11))


def test_a_move_west_after_the_last_day_began_adds_no_earlier_day(user):
    user.time_zone = "Asia/Tokyo"
    user.save()
    award_at(user, datetime(2024, 1, 10, 15, 30, tzinfo=UTC), source_id=1)  # Jan 11 in Tokyo
    user.time_zone = "America/Los_Angeles"
    user.save()

    # Jan 10 in Los Angeles, but after Jan 11 began in Tokyo: it counts on Jan 11 again
    standing = award_at(user, datetime(2024, 1, 10, 20, tzinfo=UTC), source_id=2)

    assert standing.streak_current == 1
    assert list(ActivityDay.objects.filter(user=user).values_list("day", flat=True)) == [
        date(2024, 1, 11)
    ]


def test_only_exercise_sources_count_as_exercises_passed_and_the_rollup_follows(user):
    award_at(user, datetime(2024, 1, 10, 12, tzinfo=UTC), source_id=1, amount=60)
    standing = award_at(
        user, datetime(2024, 1, 10, 13, tzinfo=UTC), source_id=9, source_type="achievement"
    )

    assert (standing.xp_total, standing.exercises_passed) == (70, 1)
    ledger = XPAward.objects.filter(user=user).aggregate(total=Sum("amount"))["total"]
    rollup = LearnerDayXP.objects.filter(user=user).aggregate(total=Sum("xp"))["total"]
    assert ledger == rollup == 70


def test_many_awards_write_each_learners_row_once_with_all_of_theirs(user):
    from accounts.tests.factories import UserFactory

    other = UserFactory()
    award_at(user, datetime(2024, 1, 10, 12, tzinfo=UTC), source_id=1)

    with time_machine.travel(datetime(2024, 1, 11, 12, tzinfo=UTC), tick=False):
        paid = services.award_xp(
            awards=[
                services.Award(user.id, "exercise", 1, 10),  # paid before
                services.Award(user.id, "exercise", 2, 20),
                services.Award(user.id, "exercise", 3, 30),
                services.Award(other.id, "exercise", 2, 20),
            ]
        )

    after = services.StandingAfterAward(xp_total=60, streak_current=2, exercises_passed=3)
    assert paid == {
        (user.id, "exercise", 2): after,
        (user.id, "exercise", 3): after,
        (other.id, "exercise", 2): services.StandingAfterAward(
            xp_total=20, streak_current=1, exercises_passed=1
        ),
    }
    assert LearnerStats.objects.get(pk=user.pk).xp_total == 60
    ledger = XPAward.objects.aggregate(total=Sum("amount"))["total"]
    assert ledger == LearnerDayXP.objects.aggregate(total=Sum("xp"))["total"] == 80


def test_each_award_paid_is_announced_once_with_the_totals_around_it(user):
    heard = []
    events.xp_paid.subscribe(heard.append)
    try:
        at = datetime(2024, 1, 10, 12, tzinfo=UTC)
        first, second = (services.Award(user.id, "lesson", n, 100, at) for n in (1, 2))
        services.award_xp(awards=[first, second])
        services.award_xp(awards=[first])
    finally:
        events.xp_paid.unsubscribe(heard.append)

    [paid] = heard
    assert [(a.source_id, a.xp_before, a.xp_after) for a in paid.awards] == [
        (1, 0, 100),
        (2, 100, 200),
    ]
    curve = selectors.level_curve()
    assert [s.number for s in selectors.levels_crossed(xp_before=0, xp_after=300, curve=curve)] == [
        1,
        2,
    ]
    assert selectors.levels_crossed(xp_before=120, xp_after=279, curve=curve) == []


def test_each_award_is_announced_with_the_latest_week_the_learner_had_xp_in_before(user):
    # 2024-01-10 is a Wednesday: its week starts on Monday the 8th, the week before on the 1st.
    heard = []
    events.xp_paid.subscribe(heard.append)
    try:
        services.award_xp(
            awards=[services.Award(user.id, "lesson", 1, 0, datetime(2024, 1, 3, tzinfo=UTC))]
        )
        services.award_xp(
            awards=[services.Award(user.id, "lesson", 2, 5, datetime(2024, 1, 4, tzinfo=UTC))]
        )
        services.award_xp(
            awards=[
                services.Award(user.id, "lesson", n, 5, datetime(2024, 1, 10, n, tzinfo=UTC))
                for n in (3, 4)
            ]
        )
        services.award_xp(
            awards=[services.Award(user.id, "lesson", 5, 5, datetime(2024, 1, 11, tzinfo=UTC))]
        )
    finally:
        events.xp_paid.unsubscribe(heard.append)

    assert [[a.latest_week_with_xp for a in paid.awards] for paid in heard] == [
        [None],  # an award of no XP makes no week one with XP
        [None],
        [date(2024, 1, 1), date(2024, 1, 1)],  # both as before the write
        [date(2024, 1, 8)],
    ]
