"""Thousands of learners over four weeks of random activity in zones around the world, paid
through the real ledger hour by hour with the close running as beat runs it; then every league
result is recomputed by brute force from the XPAward ledger (issue 38, "Figures").

LEAGUE_SIMULATION_LEARNERS sets the number of learners; the default is the issue's 10,000
(about 35 to 45 s for the month on PostgreSQL and 25 to 30 s on SQLite on 2 shared CPUs,
under a minute with the database's creation and the checks)."""

import os
import random
import time
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time
from zoneinfo import ZoneInfo

import pytest
import time_machine

from accounts.models import User
from leagues import rules, services
from leagues.models import Cohort, Leaguer, Membership
from progress import services as progress
from progress.models import XPAward

LEARNERS = int(os.environ.get("LEAGUE_SIMULATION_LEARNERS", "10000"))
FIRST_WEEK = date(2026, 3, 9)  # four weeks across the US and the European DST changes
WEEKS = [FIRST_WEEK + timedelta(weeks=n) for n in range(4)]
ZONES = [
    "Pacific/Pago_Pago", "Pacific/Honolulu", "America/Los_Angeles", "America/Denver",
    "America/Chicago", "America/New_York", "America/Sao_Paulo", "Atlantic/Azores", "UTC",
    "Europe/London", "Europe/Paris", "Europe/Athens", "Europe/Moscow", "Asia/Dubai",
    "Asia/Karachi", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Dhaka", "Asia/Bangkok",
    "Asia/Shanghai", "Asia/Tokyo", "Australia/Adelaide", "Australia/Sydney", "Pacific/Auckland",
    "Pacific/Kiritimati",
]  # fmt: skip


def _learners(rng: random.Random) -> list[User]:
    # Without e-mail: the close's notifications are written as for anyone, but the e-mails of
    # thousands of moves, sent in-process by the suite's eager tasks, are test_results.py's.
    users = [
        User(
            email=f"sim{n}@example.com",
            display_name="",
            time_zone=rng.choice(ZONES),
            email_notifications=False,
        )
        for n in range(LEARNERS)
    ]
    users = User.objects.bulk_create(users, batch_size=2000)
    # A third have a league history: a tier, and a last week some weeks back (idle drops); 2 %
    # left the leagues.
    leaguers = [
        Leaguer(
            user_id=u.pk,
            tier=rng.randrange(len(rules.TIERS)),
            last_week=FIRST_WEEK - timedelta(weeks=rng.randint(1, 10)),
            opted_out=rng.random() < 0.06,
        )
        for u in users
        if rng.random() < 1 / 3
    ]
    Leaguer.objects.bulk_create(leaguers, batch_size=2000)
    return users


def _activity(rng: random.Random, users: list[User]) -> dict[datetime, list[progress.Award]]:
    """Awards by the UTC hour they are paid in: each learner is active in a week with some
    probability, with 1 to 3 awards at local times from Monday 00:00 to Sunday 22:00 (paid
    within the hour, so never after the week ended where they live)."""
    slots: dict[datetime, list[progress.Award]] = defaultdict(list)
    source = 0
    for user in users:
        zone = ZoneInfo(user.time_zone)
        busy = rng.random()
        for week in WEEKS:
            if rng.random() > busy:
                continue
            for _ in range(rng.randint(1, 3)):
                local = datetime.combine(week, clock_time(), tzinfo=zone) + timedelta(
                    minutes=rng.randrange(0, (7 * 24 - 2) * 60)
                )
                at = local.astimezone(UTC).replace(microsecond=0)
                source += 1
                award = progress.Award(user.pk, "lesson", source, rng.randint(1, 40), at)
                slots[at.replace(minute=0, second=0) + timedelta(hours=1)].append(award)
    return slots


@pytest.mark.django_db
def test_a_month_of_leagues_equals_a_brute_force_recomputation_from_the_ledger(monkeypatch):
    started = time.monotonic()
    rng = random.Random(38)
    users = _learners(rng)
    seeded = {r.user_id: (r.tier, r.last_week, r.opted_out) for r in Leaguer.objects.all()}
    slots = _activity(rng, users)

    # Paid hour by hour, the beat's close after each hour, as production runs them; the last
    # week's close waits for the end (its week ends first at Kiritimati, Sunday 10:00 UTC).
    last_closes_from = datetime.combine(WEEKS[-1] + timedelta(days=6), clock_time(10), tzinfo=UTC)
    for paid_at in sorted(slots):
        with time_machine.travel(paid_at, tick=False):
            progress.award_xp(awards=slots[paid_at])
            if paid_at < last_closes_from:
                services.close_ended_cohorts()

    # The last week's close is killed half-way, then run again.
    after = datetime.combine(WEEKS[-1] + timedelta(days=8), clock_time(), tzinfo=UTC)
    open_cohorts = Cohort.objects.filter(week=WEEKS[-1], closed_at__isnull=True).count()
    close = services.close_cohort
    calls = []

    def killed_half_way(*, cohort_id):
        if len(calls) == open_cohorts // 2:
            raise SystemExit("killed")
        calls.append(cohort_id)
        return close(cohort_id=cohort_id)

    monkeypatch.setattr(services, "close_cohort", killed_half_way)
    with time_machine.travel(after, tick=False), pytest.raises(SystemExit):
        services.close_ended_cohorts()
    monkeypatch.undo()
    assert Cohort.objects.filter(closed_at__isnull=True).count() == open_cohorts - len(calls)
    with time_machine.travel(after, tick=False):
        services.close_ended_cohorts()
    simulated = time.monotonic() - started

    # Brute force, week by week, from the ledger.
    tier = {u.pk: seeded.get(u.pk, (rules.LOWEST, None, False))[0] for u in users}
    last_week = {u.pk: seeded.get(u.pk, (rules.LOWEST, None, False))[1] for u in users}
    opted = {u for u, (_, _, out) in seeded.items() if out}
    earned: dict[tuple[date, int], list[int]] = defaultdict(list)
    reached: dict[tuple[date, int], datetime] = {}
    for user_id, amount, at, day in XPAward.objects.values_list(
        "user_id", "amount", "awarded_at", "day"
    ):
        key = (rules.week_start(day), user_id)
        earned[key].append(amount)
        reached[key] = max(reached.get(key, at), at)
    moved = {"up": 0, "down": 0, "expected_up": 0, "expected_down": 0}
    for week in WEEKS:
        placed = {u for (w, u) in earned if w == week and u not in opted}
        members = {m.user_id: m for m in Membership.objects.filter(week=week)}
        assert set(members) == placed
        cohorts: dict[int, list[Membership]] = defaultdict(list)
        for user_id, m in members.items():
            assert m.cohort_id is not None
            assert (m.xp, m.reached_at) == (sum(earned[week, user_id]), reached[week, user_id])
            cohorts[m.cohort_id].append(m)
        cohort_rows = Cohort.objects.in_bulk(list(cohorts))
        for cohort_id, group in cohorts.items():
            cohort = cohort_rows[cohort_id]
            assert cohort.closed_at is not None
            assert len(group) == cohort.size <= rules.COHORT_SIZE
            assert max(m.offset for m in group) - min(m.offset for m in group) <= 180
            for m in group:
                expected = rules.tier_after_idling(
                    tier=tier[m.user_id], last_week=last_week[m.user_id], week=week
                )
                assert cohort.tier == expected
            ranked = sorted(group, key=lambda m: (-m.xp, m.reached_at, m.user_id))
            after_week = rules.tiers_after(tier=cohort.tier, members=len(ranked))
            for m, new_tier in zip(ranked, after_week, strict=True):
                assert m.tier_after == new_tier
                tier[m.user_id] = new_tier
                last_week[m.user_id] = week
            n = len(ranked)
            up = 0 if cohort.tier == rules.HIGHEST else min(n, 10 if cohort.tier == 0 else 7)
            moved["expected_up"] += up
            moved["expected_down"] += 0 if cohort.tier == rules.LOWEST else min(5, n - up)
            moved["up"] += sum(m.tier_after > cohort.tier for m in group)
            moved["down"] += sum(m.tier_after < cohort.tier for m in group)
    assert moved["up"] == moved["expected_up"] > 0
    assert moved["down"] == moved["expected_down"] > 0
    final = dict(Leaguer.objects.values_list("user_id", "tier"))
    assert {u: t for u, t in tier.items() if u in final} == final

    # Running the close again changes nothing.
    with time_machine.travel(after + timedelta(hours=1), tick=False):
        assert services.close_ended_cohorts() == 0
    assert dict(Leaguer.objects.values_list("user_id", "tier")) == final
    print(
        f"\n{LEARNERS} learners, {XPAward.objects.count()} awards, "
        f"{Cohort.objects.count()} cohorts: simulated in {simulated:.1f} s"
    )
