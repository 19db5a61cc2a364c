from datetime import UTC, date, datetime, timedelta

import time_machine

from accounts.tests.factories import UserFactory
from leagues import services
from leagues.models import Cohort, Leaguer, Membership
from leagues.tests.factories import WEEK, CohortFactory, LeaguerFactory, MembershipFactory
from progress import services as progress
from progress.events import XpAwardsPaid, XpPaid

WEDNESDAY = datetime(2026, 3, 11, 10, tzinfo=UTC)


def test_the_first_xp_of_the_week_places_the_learner_in_a_cohort_of_their_tier(earn):
    learner = UserFactory(time_zone="Europe/Paris")

    earn(learner, 10, WEDNESDAY)

    membership = Membership.objects.get(user=learner)
    assert (membership.week, membership.xp, membership.offset) == (WEEK, 10, 60)
    assert (membership.cohort.tier, membership.cohort.size) == (0, 1)
    # The week ends at Monday 00:00 in Paris.
    assert membership.cohort.ends_at == datetime(2026, 3, 15, 23, tzinfo=UTC)


def test_a_learner_without_xp_this_week_is_not_placed(earn):
    learner = UserFactory()
    earn(learner, 10, WEDNESDAY - timedelta(days=7))

    earn(UserFactory(), 10, WEDNESDAY)

    assert list(Membership.objects.filter(user=learner).values_list("week", flat=True)) == [
        WEEK - timedelta(days=7)
    ]


def test_an_award_of_no_xp_places_nobody(earn):
    learner = UserFactory()

    earn(learner, 0, WEDNESDAY)

    assert not Membership.objects.filter(user=learner).exists()


def test_league_xp_adds_up_the_weeks_awards_and_keeps_when_it_was_reached(earn):
    learner = UserFactory()
    earn(learner, 10, WEDNESDAY)

    earn(learner, 15, WEDNESDAY + timedelta(hours=3))

    membership = Membership.objects.get(user=learner)
    assert (membership.xp, membership.reached_at) == (25, WEDNESDAY + timedelta(hours=3))


def test_the_week_is_the_one_of_the_awards_stored_day(earn):
    learner = UserFactory(time_zone="Asia/Tokyo")

    # Sunday 15:30 UTC is already Monday 00:30 in Tokyo: next week's XP.
    earn(learner, 10, datetime(2026, 3, 15, 15, 30, tzinfo=UTC))

    assert Membership.objects.get(user=learner).week == WEEK + timedelta(days=7)


def test_the_31st_learner_of_a_tier_opens_a_new_cohort(earn):
    learners = UserFactory.create_batch(31)

    for learner in learners:
        earn(learner, 10, WEDNESDAY)

    assert sorted(Cohort.objects.values_list("size", flat=True)) == [1, 30]
    assert Membership.objects.get(user=learners[-1]).cohort.size == 1


def test_learners_more_than_3_hours_apart_never_share_a_cohort(earn):
    zones = ["Europe/London", "Europe/Paris", "Europe/Moscow", "Asia/Dubai", "Asia/Kolkata"]
    learners = [UserFactory(time_zone=zone) for zone in zones * 3]

    for learner in learners:
        earn(learner, 10, WEDNESDAY)

    for cohort in Cohort.objects.all():
        offsets = list(Membership.objects.filter(cohort=cohort).values_list("offset", flat=True))
        assert max(offsets) - min(offsets) <= 180
    london, kolkata = (Membership.objects.get(user=learners[i]) for i in (0, 4))
    assert london.cohort_id != kolkata.cohort_id


def test_a_learner_who_left_the_leagues_is_never_placed(earn):
    learner = UserFactory()
    services.set_participation(user_id=learner.id, participating=False)

    earn(learner, 10, WEDNESDAY)

    assert not Membership.objects.filter(user=learner).exists()


def test_leaving_the_leagues_takes_the_learner_off_their_open_cohort(earn):
    learner, other = UserFactory.create_batch(2)
    earn(learner, 10, WEDNESDAY)
    earn(other, 10, WEDNESDAY)

    services.set_participation(user_id=learner.id, participating=False)

    assert list(Membership.objects.values_list("user_id", flat=True)) == [other.id]
    assert Cohort.objects.get().size == 1


def _left_earned_and_joined_again(earn, *, joined_at: datetime):
    """A learner who left the leagues, earned 10 XP on WEDNESDAY and joined again."""
    learner = UserFactory()
    services.set_participation(user_id=learner.id, participating=False)
    earn(learner, 10, WEDNESDAY)
    with time_machine.travel(joined_at, tick=False):
        services.set_participation(user_id=learner.id, participating=True)
    return learner


def test_joining_again_places_the_learner_at_once_with_the_weeks_xp(earn):
    learner = _left_earned_and_joined_again(earn, joined_at=WEDNESDAY + timedelta(hours=1))

    membership = Membership.objects.get(user=learner)
    assert (membership.week, membership.xp, membership.reached_at) == (WEEK, 10, WEDNESDAY)
    assert membership.cohort.size == 1


def test_joining_again_counts_the_next_xp_of_the_week_once(earn):
    learner = _left_earned_and_joined_again(earn, joined_at=WEDNESDAY + timedelta(hours=1))

    earn(learner, 5, WEDNESDAY + timedelta(hours=2))

    assert Membership.objects.get(user=learner).xp == 15


def test_joining_again_after_the_week_ended_places_the_learner_with_their_next_xp(earn):
    next_wednesday = WEDNESDAY + timedelta(weeks=1)
    learner = _left_earned_and_joined_again(earn, joined_at=next_wednesday)

    assert not Membership.objects.filter(user=learner).exists()
    earn(learner, 5, next_wednesday + timedelta(hours=1))

    assert Membership.objects.get(user=learner).week == WEEK + timedelta(weeks=1)
    assert Membership.objects.get(user=learner).xp == 5


def test_xp_after_the_week_closed_is_not_added(earn):
    member = MembershipFactory(xp=10, tier_after=1)

    # Synced late: earned on the week's Sunday, arriving after its close.
    earn(member.user, 30, datetime(2026, 3, 15, 23, tzinfo=UTC))

    member.refresh_from_db()
    assert member.xp == 10


def test_xp_synced_after_the_week_ended_places_nobody(earn):
    learner = UserFactory()

    sunday_evening = datetime(2026, 3, 15, 20, tzinfo=UTC)

    with time_machine.travel(datetime(2026, 3, 16, 1, tzinfo=UTC), tick=False):
        progress.award_xp(
            awards=[progress.Award(learner.id, "lesson", 1, 10, awarded_at=sunday_evening)]
        )

    assert not Membership.objects.filter(user=learner, week=WEEK).exists()


def test_first_xp_before_last_week_closed_waits_and_joins_at_the_tier_the_close_gave(earn):
    last_week = MembershipFactory(
        cohort=CohortFactory(
            week=WEEK - timedelta(days=7), ends_at=datetime(2026, 3, 9, tzinfo=UTC)
        )
    )
    learner = last_week.user

    earn(learner, 10, datetime(2026, 3, 9, 0, 5, tzinfo=UTC))
    waiting = Membership.objects.get(user=learner, week=WEEK)
    assert waiting.cohort is None

    services.close_cohort(cohort_id=last_week.cohort_id)  # alone: 10 move up from Bronze
    services.place_waiting()

    waiting.refresh_from_db()
    assert (waiting.cohort.tier, waiting.xp) == (1, 10)


def test_once_placed_an_award_costs_the_league_no_statement(earn, django_assert_num_queries):
    learner = UserFactory()
    earn(learner, 10, WEDNESDAY)
    paid = XpPaid(learner.id, "lesson", 99, WEDNESDAY, 10, 20, date(2026, 3, 11), "UTC", WEEK)

    with django_assert_num_queries(0):
        services.record_league_xp(XpAwardsPaid(awards=(paid,)))


def test_placement_applies_the_idle_weeks_drop(earn):
    learner = LeaguerFactory(tier=2, last_week=WEEK - timedelta(weeks=5)).user

    earn(learner, 10, WEDNESDAY)

    assert Membership.objects.get(user=learner).cohort.tier == 1
    assert Leaguer.objects.get(user=learner).tier == 1


def test_a_placement_costs_the_league_at_most_seven_statements(db, django_assert_max_num_queries):
    learner = LeaguerFactory(last_week=WEEK - timedelta(weeks=1)).user
    paid = XpPaid(learner.id, "lesson", 1, WEDNESDAY, 0, 10, date(2026, 3, 11), "UTC", None)

    with time_machine.travel(WEDNESDAY, tick=False), django_assert_max_num_queries(7):
        services.record_league_xp(XpAwardsPaid(awards=(paid,)))

    assert Membership.objects.filter(user=learner, week=WEEK).exists()
