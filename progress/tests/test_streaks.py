"""The streak rule under any time zones: a day cannot be counted twice by changing zone, and a
learner who keeps their zone gets every local day (issue 25)."""

import zoneinfo
from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from accounts.tests.factories import UserFactory
from progress import selectors, services
from progress.models import LearnerStats
from progress.streaks import day_start

pytestmark = pytest.mark.django_db

ZONES = sorted(zoneinfo.available_timezones())
# Zones whose clocks change: DST either way, a 2-hour DST (Troll), 3-hour changes (Casey in the
# early 2020s), Samoa's DST until 2021 (the date line).
CHANGING = [
    "America/New_York",
    "Europe/London",
    "Pacific/Apia",
    "Antarctica/Troll",
    "Antarctica/Casey",
    "Australia/Lord_Howe",
    "Pacific/Kiritimati",
    "Etc/GMT+12",
]
# Days around clock changes: US and EU spring/autumn 2024, Samoa's last DST end (2021-04-04).
NEAR_CHANGES = [date(2024, 3, 8), date(2024, 3, 29), date(2024, 10, 25), date(2024, 11, 1),
                date(2021, 4, 2), date(2021, 3, 12), date(2020, 10, 2)]  # fmt: skip
# The shortest day any zone had since 2020 (Antarctica/Casey, 21 hours): a real run of n days
# takes at least n - 1 of them.
SHORTEST_DAY = timedelta(hours=21)

zones = st.one_of(st.sampled_from(CHANGING), st.sampled_from(ZONES))
instants = st.datetimes(
    min_value=datetime(2020, 1, 1), max_value=datetime(2026, 12, 31), timezones=st.just(UTC)
)
first_days = st.one_of(
    st.sampled_from(NEAR_CHANGES), st.dates(min_value=date(2020, 1, 1), max_value=date(2026, 12, 1))
)
# Seconds to the next activity: mostly within the hour (zone hops), sometimes a day or more.
advances = st.one_of(st.integers(0, 3600), st.integers(0, 30 * 3600))


def active(user: User, zone: str, at: datetime, source_id: int) -> services.StandingAfterAward:
    User.objects.filter(pk=user.pk).update(time_zone=zone)
    with time_machine.travel(at, tick=False):
        award = services.Award(user.id, "exercise", source_id, 5)
        return services.award_xp(awards=[award])[award.key]


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(start=instants, steps=st.lists(st.tuples(zones, advances), min_size=2, max_size=8))
def test_changing_zone_never_makes_a_streak_longer_than_real_time_allows(start, steps):
    user = UserFactory()
    first_zone = zoneinfo.ZoneInfo(steps[0][0])
    # The run's first day began at its midnight: from there n days take n - 1 shortest days.
    began = day_start(start.astimezone(first_zone).date(), first_zone)
    at = start
    for source_id, (zone, advance) in enumerate(steps):
        at += timedelta(seconds=advance)
        active(user, zone, at, source_id)

    stats = LearnerStats.objects.get(pk=user.pk)
    assert stats.streak_best <= 1 + (at - began) // SHORTEST_DAY


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    zone=zones,
    first=first_days,
    times_of_day=st.lists(st.floats(min_value=0, max_value=1, exclude_max=True), min_size=2,
                          max_size=6),
)  # fmt: skip
def test_a_learner_who_keeps_their_zone_gets_every_local_day(zone, first, times_of_day):
    user = UserFactory()
    tz = zoneinfo.ZoneInfo(zone)
    for n, fraction in enumerate(times_of_day):
        day = first + timedelta(days=n)
        begins, ends = day_start(day, tz), day_start(day + timedelta(days=1), tz)
        # Any instant of the local day, at its very start or end included.
        at = begins + (ends - begins - timedelta(microseconds=1)) * fraction
        standing = active(user, zone, at, n)

        assert standing.streak_current == n + 1


@pytest.mark.parametrize(
    "hops",
    [
        ["Etc/GMT+12", "UTC", "Pacific/Kiritimati"],  # Jan 9, Jan 10, Jan 11 at 11:00 UTC
        ["Pacific/Kiritimati", "Etc/GMT+12", "UTC"],  # the latest day first, then the others
    ],
)
def test_three_dates_reachable_at_once_make_one_day(hops):
    user = UserFactory()
    for n, zone in enumerate(hops):
        active(user, zone, datetime(2024, 1, 10, 11, n, tzinfo=UTC), n)

    stats = LearnerStats.objects.get(pk=user.pk)
    assert (stats.streak_current, stats.streak_best) == (1, 1)


def test_after_a_move_east_the_run_goes_on_and_a_new_one_takes_the_new_zones_days():
    user = UserFactory()
    new_york, tokyo = zoneinfo.ZoneInfo("America/New_York"), zoneinfo.ZoneInfo("Asia/Tokyo")
    for n in range(3):  # Jan 1-3, 20:00 in New York
        active(
            user,
            "America/New_York",
            day_start(date(2024, 1, 1 + n), new_york) + timedelta(hours=20),
            n,
        )
    # Mornings in Tokyo (Jan 5-7, 09:00) are still the evenings before in New York: the run goes
    # on, each morning on the day before.
    for n in range(3):
        standing = active(
            user, "Asia/Tokyo", day_start(date(2024, 1, 5 + n), tokyo) + timedelta(hours=9), 10 + n
        )
    assert standing.streak_current == 6
    assert LearnerStats.objects.get(pk=user.pk).last_active_day == date(2024, 1, 6)
    # A day missed breaks the run; the next one counts on Tokyo's day, and so on.
    for n in range(2):
        standing = active(
            user, "Asia/Tokyo", day_start(date(2024, 1, 9 + n), tokyo) + timedelta(hours=9), 20 + n
        )
    assert standing.streak_current == 2
    assert LearnerStats.objects.get(pk=user.pk).last_active_day == date(2024, 1, 10)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    start=instants,
    steps=st.lists(st.tuples(zones, advances), min_size=1, max_size=6),
    move=st.tuples(zones, st.integers(0, 60 * 3600)),
)
def test_the_streak_shown_after_any_zone_change_is_the_one_the_next_activity_continues(
    start, steps, move
):
    user = UserFactory()
    at = start
    for source_id, (zone, advance) in enumerate(steps):
        at += timedelta(seconds=advance)
        active(user, zone, at, source_id)
    last_before = LearnerStats.objects.get(pk=user.pk).last_active_day
    zone, advance = move
    at += timedelta(seconds=advance)

    User.objects.filter(pk=user.pk).update(time_zone=zone)
    with time_machine.travel(at, tick=False):
        shown = selectors.standing_for_user(user_id=user.pk)["streak"]["current"]
    standing = active(user, zone, at, len(steps))

    new_day = LearnerStats.objects.get(pk=user.pk).last_active_day != last_before
    assert standing.streak_current == (shown + new_day if shown else 1)


# --- The daily goal, by the same days -----------------------------------------------------------


def _day_xp_read_at(user: User, at: datetime) -> dict:
    user.refresh_from_db()
    with time_machine.travel(at, tick=False):
        return selectors.progress_summary(user=user).body["daily_goal"]


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    zone=zones,
    first=first_days,
    fractions=st.lists(st.floats(min_value=0, max_value=1, exclude_max=True), min_size=1,
                       max_size=5),
    days_apart=st.lists(st.integers(0, 2), min_size=5, max_size=5),
)  # fmt: skip
def test_todays_xp_is_what_the_learners_local_day_earned(zone, first, fractions, days_apart):
    user = UserFactory()
    LearnerStats.objects.create(user=user, daily_goal=10)
    tz = zoneinfo.ZoneInfo(zone)
    day, earned = first, {}
    for n, fraction in enumerate(fractions):
        day += timedelta(days=days_apart[n])
        begins, ends = day_start(day, tz), day_start(day + timedelta(days=1), tz)
        at = begins + (ends - begins - timedelta(microseconds=1)) * fraction
        active(user, zone, at, n)
        earned[day] = earned.get(day, 0) + 5

        # Read within the day it counted on, and at the very start of the next one.
        assert _day_xp_read_at(user, at) == {
            "xp": 10,
            "xp_today": earned[day],
            "met": earned[day] >= 10,
            "chosen": False,  # set in the database, not chosen through the API
        }
        assert _day_xp_read_at(user, ends)["xp_today"] == 0
