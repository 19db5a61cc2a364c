"""League XP from the ledger: the trigger of migration 0004 adds each award to its learner's
open week, in the statement that inserts it."""

from datetime import UTC, date, datetime, timedelta

import time_machine
from django.db.models import Sum

from accounts.tests.factories import UserFactory
from leagues.models import Membership
from leagues.rules import week_start
from leagues.tests.factories import WEEK, CohortFactory, MembershipFactory
from progress import services as progress
from progress.tests.factories import XPAwardFactory

REACHED = datetime(2026, 3, 11, 12, tzinfo=UTC)


def test_each_award_counts_for_the_week_of_its_stored_day(db):
    # Two weeks a side of WEEK, in the SQL of both databases: the trigger restates week_start.
    learner = UserFactory()
    weeks = [WEEK + timedelta(weeks=n) for n in range(-2, 3)]
    for week in weeks:
        MembershipFactory(user=learner, cohort=CohortFactory(week=week), xp=0)
    days = [WEEK + timedelta(days=n) for n in range(-14, 21)]

    for n, day in enumerate(days):
        XPAwardFactory(user=learner, day=day, amount=n + 1, awarded_at=REACHED)

    expected = dict.fromkeys(weeks, 0)
    for n, day in enumerate(days):
        expected[week_start(day)] += n + 1
    assert dict(Membership.objects.values_list("week", "xp")) == expected


def test_an_award_moves_the_time_its_xp_was_reached_only_forward(db):
    member = MembershipFactory(xp=10, reached_at=REACHED)

    XPAwardFactory(user=member.user, day=date(2026, 3, 10), awarded_at=REACHED - timedelta(days=1))
    member.refresh_from_db()
    assert (member.xp, member.reached_at) == (30, REACHED)

    XPAwardFactory(user=member.user, day=date(2026, 3, 12), awarded_at=REACHED + timedelta(days=1))
    member.refresh_from_db()
    assert (member.xp, member.reached_at) == (50, REACHED + timedelta(days=1))


def test_an_award_of_no_xp_leaves_the_time_its_xp_was_reached(db):
    member = MembershipFactory(xp=10, reached_at=REACHED)

    XPAwardFactory(
        user=member.user, day=date(2026, 3, 12), amount=0, awarded_at=REACHED.replace(hour=20)
    )

    member.refresh_from_db()
    assert (member.xp, member.reached_at) == (10, REACHED)


def test_an_award_to_another_learner_or_week_leaves_a_membership_alone(db):
    member = MembershipFactory(xp=10)

    XPAwardFactory(day=date(2026, 3, 11))
    XPAwardFactory(user=member.user, day=WEEK + timedelta(weeks=1))

    member.refresh_from_db()
    assert member.xp == 10


def test_one_ledger_write_for_many_learners_adds_each_ones_xp_to_their_week(db):
    members = [MembershipFactory(xp=0) for _ in range(3)]

    with time_machine.travel(REACHED, tick=False):
        progress.award_xp(
            awards=[
                progress.Award(m.user_id, "lesson", n, amount)
                for m in members
                for n, amount in ((1, 5), (2, 7))
            ]
        )

    assert list(Membership.objects.values_list("xp", flat=True).distinct()) == [12]
    assert Membership.objects.aggregate(total=Sum("xp"))["total"] == 36
