"""The weekly leagues at the scale benchmark's size (issue 38, "Figures"): seeded in bulk SQL
after the ledger, then timed (bench/scale_workload.py calls `seed` and `measure`).

The seed: the learners spread over zones of different UTC offsets; every learner has a
Leaguer row (a tier, most in the lower tiers); those with XP in this week (the week of the
award's date in their zone: the seeded ledger stores no day, so its rollup's rule) are members
of this week's cohorts of at most 30, one zone and tier per cohort (anchored at the zone's
offset), in user id order, with the week's XP and the time of their latest award as league
XP, as the ledger's league trigger would have kept them.

The figures: `GET /api/v1/me/league` of a placed learner; one award through
`progress.services.award_xp` with the league and without it (its ledger trigger, its `xp_paid`
subscriber and the lock's read of the latest week with XP; blocks alternated, the same
learners), and their ratio; the close of every cohort of the week
(`close_ended_cohorts` until nothing is left) with the clock moved past the week's end in
every zone. With --keep, the close is undone afterwards so the database can be timed again.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta
from datetime import time as midnight
from zoneinfo import ZoneInfo

from bench.scale_workload import percentile

# Zones an hour or more apart (their offsets on the bench's day differ by DST), so that a
# cohort never mixes two of them.
ZONES = (
    "America/Los_Angeles",
    "America/New_York",
    "America/Sao_Paulo",
    "UTC",
    "Europe/Paris",
    "Asia/Kolkata",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
)
# A learner's tier from their id: 40 % Bronze, 25 % Silver, 17 % Gold, 12 % Sapphire, 6 %.
_TIER = (
    "CASE WHEN {id} %% 100 < 40 THEN 0 WHEN {id} %% 100 < 65 THEN 1 "
    "WHEN {id} %% 100 < 82 THEN 2 WHEN {id} %% 100 < 94 THEN 3 ELSE 4 END"
)


def seed(bench) -> None:
    """Zones, Leaguer rows and this week's cohorts and memberships, in a few statements."""
    from django.db import transaction
    from django.utils import timezone

    from leagues import rules
    from progress.selectors import today_in

    first, last = bench.first_user, bench.last_user
    zones = []
    for name in ZONES:
        zone = ZoneInfo(name)
        week = rules.week_start(today_in(zone))
        ends_at = rules.week_ends_at(week, zone)
        zones.append((name, rules.offset_minutes(zone, timezone.now()), week, ends_at))
    values = ", ".join(["(%s, %s, %s::date, %s::timestamptz)"] * len(zones))
    with transaction.atomic():
        bench.sql(
            f"UPDATE accounts_user SET time_zone = (%s::text[])[(id %% {len(ZONES)}) + 1] "
            "WHERE id BETWEEN %s AND %s",
            [list(ZONES), first, last],
        )
        bench.sql(
            "CREATE TEMP TABLE bench_zones (tz text, anchor int, week date, ends_at timestamptz)"
            " ON COMMIT DROP"
        )
        bench.sql(f"INSERT INTO bench_zones VALUES {values}", [v for zone in zones for v in zone])
        # This week's league XP per learner, from the ledger.
        bench.sql(
            f"""
            CREATE TEMP TABLE bench_placed ON COMMIT DROP AS
            SELECT a.user_id, z.tz, z.anchor, z.week, z.ends_at, {_TIER.format(id="a.user_id")}
                   AS tier, SUM(a.amount)::int AS xp, MAX(a.awarded_at) AS reached_at
            FROM progress_xpaward a
            JOIN accounts_user u ON u.id = a.user_id
            JOIN bench_zones z ON z.tz = u.time_zone
            WHERE a.user_id BETWEEN %s AND %s
              AND a.awarded_at >= z.week - interval '1 day'
              AND COALESCE(a.day, (a.awarded_at AT TIME ZONE z.tz)::date) >= z.week
            GROUP BY a.user_id, z.tz, z.anchor, z.week, z.ends_at
            """,
            [first, last],
        )
        bench.sql(
            f"""
            CREATE TEMP TABLE bench_slots ON COMMIT DROP AS
            SELECT user_id, (row_number() OVER (PARTITION BY tz, tier ORDER BY user_id) - 1)
                   / {rules.COHORT_SIZE} AS slot
            FROM bench_placed
            """
        )
        bench.sql(
            """
            CREATE TEMP TABLE bench_cohorts ON COMMIT DROP AS
            SELECT nextval(pg_get_serial_sequence('leagues_cohort', 'id')) AS id, g.*
            FROM (SELECT p.tz, p.tier, s.slot, MIN(p.anchor) AS anchor, MIN(p.week) AS week,
                         MIN(p.ends_at) AS ends_at, count(*) AS size
                  FROM bench_placed p JOIN bench_slots s USING (user_id)
                  GROUP BY p.tz, p.tier, s.slot ORDER BY p.tz, p.tier, s.slot) g
            """
        )
        # Temporary tables have no statistics until analyzed: without them the planner joined
        # a million members to their cohorts by nested loops.
        for table in ("bench_zones", "bench_placed", "bench_slots", "bench_cohorts"):
            bench.sql(f"ANALYZE {table}")
        bench.sql(
            """
            INSERT INTO leagues_cohort (id, week, tier, anchor_offset, size, ends_at)
            SELECT id, week, tier, anchor, size, ends_at FROM bench_cohorts ORDER BY id
            """
        )
        bench.sql(
            """
            INSERT INTO leagues_membership (user_id, week, cohort_id, "offset", xp, reached_at)
            SELECT p.user_id, p.week, c.id, p.anchor, p.xp, p.reached_at
            FROM bench_placed p JOIN bench_slots s USING (user_id)
            JOIN bench_cohorts c ON (c.tz, c.tier, c.slot) = (p.tz, p.tier, s.slot)
            ORDER BY p.user_id
            """
        )
        # Everybody has a tier; last week is their last placed week (no idle weeks).
        bench.sql(
            f"""
            INSERT INTO leagues_leaguer (user_id, tier, opted_out, last_week, updated_at)
            SELECT u.id, {_TIER.format(id="u.id")}, false,
                   CASE WHEN p.user_id IS NULL THEN z.week - 7 ELSE z.week END, now()
            FROM accounts_user u JOIN bench_zones z ON z.tz = u.time_zone
            LEFT JOIN bench_placed p ON p.user_id = u.id
            WHERE u.id BETWEEN %s AND %s
            """,
            [first, last],
        )
    counts = {
        table: bench.sql(f"SELECT count(*) FROM {table}")[0][0]
        for table in ("leagues_leaguer", "leagues_cohort", "leagues_membership")
    }
    bench.result["facts"].update({f"rows {k}": v for k, v in counts.items()})
    bench.log(f"leagues seeded: {counts}")
    check_against_the_ledger(bench)


def check_against_the_ledger(bench, *, sample: int = 200) -> None:
    """Sampled members' league XP and time against their awards of the week, summed here."""
    from leagues.models import Membership
    from progress.models import XPAward

    everyone = range(bench.first_user, bench.last_user + 1)
    chosen = random.Random(38).sample(everyone, min(len(everyone), sample * 2))
    found = Membership.objects.filter(user_id__in=chosen).select_related("user")
    members = list(found.order_by("user_id")[:sample])
    wrong = 0
    for m in members:
        zone = ZoneInfo(m.user.time_zone)
        awards = [
            (amount, at)
            for amount, at, day in XPAward.objects.filter(
                user_id=m.user_id,
                awarded_at__gte=datetime.combine(m.week - timedelta(days=1), midnight(), UTC),
            ).values_list("amount", "awarded_at", "day")
            if (day or at.astimezone(zone).date()) >= m.week
        ]
        expected = (sum(a for a, _ in awards), max(at for _, at in awards))
        wrong += (m.xp, m.reached_at) != expected
    sizes = bench.sql("SELECT max(size), min(size) FROM leagues_cohort")[0]
    bench.log(f"league XP against the ledger: {len(members)} members sampled, {wrong} wrong")
    if wrong or sizes[0] > 30:
        bench.result["errors"].append(f"league seed: {wrong} members wrong, sizes {sizes}")


def measure(bench) -> None:
    """The league's figures: its read, an award's cost with and without it, the close."""
    from django.test import Client

    from accounts.models import User
    from leagues.models import Membership

    viewer_id = (
        Membership.objects.filter(user_id__gte=(bench.first_user + bench.last_user) // 2)
        .order_by("user_id")
        .values_list("user_id", flat=True)
        .first()
    )
    client = Client()
    client.force_login(User.objects.get(pk=viewer_id))
    bench.timed("league: GET /me/league", client, "/api/v1/me/league", count=bench.args.requests)
    award_cost(bench)
    bench.step("league: close of every cohort (s)", close_all, bench)
    if bench.args.keep:
        bench.step("league: close undone, for the next run (s)", undo_close, bench)


def award_cost(bench) -> None:
    """One award of 10 XP to a placed learner (a new source each time; each its own
    transaction, as a completion's), with the league on and off in turn: off, the ledger's
    league trigger is disabled, the `xp_paid` subscriber unsubscribed and the lock reads no
    latest week with XP (what an award cost before the leagues). Blocks of awards alternate,
    the first few of each untimed (the trigger's switch makes the next statements plan
    again), so that both see the same load from the rest of the machine."""
    from django.db import connection

    from leagues.services import record_league_xp
    from progress import events
    from progress import services as progress
    from progress.services import stats_rows

    learners = [
        user_id
        for (user_id,) in bench.sql(
            "SELECT user_id FROM leagues_membership ORDER BY user_id %% 7919, user_id LIMIT %s",
            [max(50, bench.args.requests * 2)],
        )
    ]
    latest_week = {True: stats_rows.LATEST_WEEK_WITH_XP, False: "NULL"}

    def league(on: bool) -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                "ALTER TABLE progress_xpaward "
                f"{'ENABLE' if on else 'DISABLE'} TRIGGER leagues_xpaward_league_xp"
            )
        stats_rows.LATEST_WEEK_WITH_XP = latest_week[on]
        (events.xp_paid.subscribe if on else events.xp_paid.unsubscribe)(record_league_xp)

    chooser = random.Random(38)
    source = iter(range(10**9, 2 * 10**9))
    times: dict[bool, list[float]] = {True: [], False: []}
    block, untimed = 25, 3
    blocks = max(4, 2 * -(-bench.args.requests // (block - untimed)))
    try:
        for n in range(blocks + 2):
            on = n % 2 == 0
            league(on)
            for k in range(block):
                award = progress.Award(chooser.choice(learners), "lesson", next(source), 10)
                started = time.perf_counter()
                progress.award_xp(awards=[award])
                if n >= 2 and k >= untimed:  # one block of each warms up
                    times[on].append((time.perf_counter() - started) * 1000)
    finally:
        league(True)
    on, off = (percentile(times[k], 50) for k in (True, False))
    for hooked, label in ((True, "on"), (False, "off")):
        row = {"p50": percentile(times[hooked], 50), "p99": percentile(times[hooked], 99)}
        bench.result["rows"][f"league: one award, league {label}"] = {
            **row,
            "learner_facing": False,
        }
        bench.log(
            f"one award, league {label}: p50 {row['p50']:.2f} ms, p99 {row['p99']:.2f}"
            f" ({len(times[hooked])} awards)"
        )
    bench.result["facts"]["league: one award, league on / off"] = round(on / off, 3)
    bench.log(f"one award, league on / off (p50): {on / off:.3f}")


def close_all(bench) -> None:
    """The week's close of every cohort, the clock past the end of the week in every zone."""
    import time_machine
    from django.test import override_settings

    from leagues import rules, services
    from leagues.models import Cohort

    latest = Cohort.objects.order_by("-ends_at").values_list("ends_at", flat=True).first()
    due = Cohort.objects.filter(closed_at__isnull=True).count()
    closed, runs = 0, 0
    # The clock is the node's (the database's would put it back to today).
    with (
        override_settings(CLOCK_FROM_DATABASE=False),
        time_machine.travel(latest + rules.CLOSE_MARGIN + timedelta(minutes=1)),
    ):
        while True:
            runs += 1
            done = services.close_ended_cohorts()
            closed += done
            if not done:
                break
    left = Cohort.objects.filter(closed_at__isnull=True).count()
    bench.result["facts"]["league: cohorts closed"] = closed
    bench.log(f"closed {closed} of {due} cohorts in {runs} runs, {left} left open")
    if closed != due or left:
        bench.result["errors"].append(f"league close: {closed} of {due} closed, {left} open")


def undo_close(bench) -> None:
    """The week open again as seeded: tiers back to the cohorts', no results, no close, no
    result notifications (their e-mail tasks went with the run's queue)."""
    from django.db import transaction

    from leagues.results import NOTIFICATION_KIND
    from notifications.models import Notification

    with transaction.atomic():
        bench.sql(
            "UPDATE leagues_leaguer l SET tier = c.tier FROM leagues_membership m "
            "JOIN leagues_cohort c ON c.id = m.cohort_id WHERE m.user_id = l.user_id"
        )
        bench.sql("UPDATE leagues_membership SET tier_after = NULL")
        bench.sql("UPDATE leagues_cohort SET closed_at = NULL")
        table = Notification._meta.db_table
        bench.sql(f"DELETE FROM {table} WHERE kind = %s", [NOTIFICATION_KIND])


def targets(results: dict) -> list[tuple[str, bool, str]]:
    """The league's targets at the run's size: (label, met, value)."""
    rows, facts = results["rows"], results["facts"]
    checks = []
    read = rows.get("league: GET /me/league")
    if read:
        checks.append(("GET /me/league: p99 <= 20 ms", read["p99"] <= 20, f"{read['p99']:.1f}"))
    ratio = facts.get("league: one award, hook on / off")
    if ratio is not None:
        checks.append(("one award, league hook on / off: <= 1.10", ratio <= 1.10, f"{ratio}"))
    close = facts.get("league: close of every cohort (s)")
    if close is not None:
        checks.append(("close of every cohort: <= 600 s", close <= 600, f"{close} s"))
    for name, row in rows.items():
        if name.startswith("viewer's rank"):
            checks.append((f"{name}: p99 <= 5 ms", row["p99"] <= 5, f"{row['p99']:.2f}"))
    return checks
