"""One clock across machines, in the multi-node rehearsal (bench/cluster.py; issue 44).

Web node B runs with its wall clock minutes ahead of the database's (bench/wallclock: only the
wall clock moves; monotonic time and sleeps do not). The rehearsal picks the learners' time
zone whose midnight comes first, at least LEAD seconds away (the nodes must start before it),
and sets B's clock PAST_MIDNIGHT seconds beyond it: while the database says it is still today
where the learners are, B thinks it is tomorrow. Then, before that midnight, a few learners
complete a lesson by its checks, half through B and half through A, and at the end:

- the day each completion counts on equals the database's (their activity days, the local
  date of the database's clock around the answer);
- both nodes answer the same progress (`/me/progress` through A and B, compared whole);
- no negative latency: no duration across processes came out negative
  (`lp_clock_skew_durations_total` on every node), and the boards' rebuild age is the same on
  both web nodes.

`--node-clocks` runs every node on its own clock (CLOCK_FROM_DATABASE=false): the checks
above then fail, which is what they are for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bench.cluster_metrics import Scrapes

WALL_CLOCK_SHIM = Path(__file__).resolve().parent / "wallclock"
LEAD = 420  # seconds from the plan to the clock step: the nodes start in between
PAST_MIDNIGHT = 300
# Whole-hour zones from UTC-12 to UTC+14 (a midnight every hour) and the half- and
# quarter-hour ones: one midnight comes within an hour after LEAD, often within 15 minutes,
# so node B is 12 to 72 minutes ahead, whenever the rehearsal runs.
ZONES = (
    "UTC", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Eucla", "Asia/Tehran", "Asia/Kabul",
    "Asia/Yangon", "Australia/Darwin", "America/St_Johns", "Pacific/Marquesas",
    "Pacific/Chatham", *(f"Etc/GMT{hours:+d}" for hours in range(-14, 13) if hours),
)  # fmt: skip
LEARNERS = 4


@dataclass(frozen=True)
class Plan:
    zone: str
    midnight: datetime  # the zone's next midnight, in UTC
    ahead: float  # seconds web node B's wall clock is ahead


def plan(now: datetime, *, lead: float = LEAD) -> Plan:
    """The zone whose next midnight comes first, at least `lead` seconds after `now` (the
    database's time), and how far ahead node B's clock goes to be past it."""
    best: tuple[float, str, datetime] | None = None
    for name in ZONES:
        zone = ZoneInfo(name)
        local = now.astimezone(zone)
        midnight = datetime.combine(local.date() + timedelta(days=1), time(0), zone)
        until = (midnight - now).total_seconds()
        if until >= lead and (best is None or until < best[0]):
            best = (until, name, midnight.astimezone(UTC))
    assert best is not None  # UTC's midnight is at most a day away
    until, name, midnight = best
    return Plan(zone=name, midnight=midnight, ahead=until + PAST_MIDNIGHT)


def node_b_env(plan: Plan, python_path: str = "") -> dict[str, str]:
    """What web node B adds to its environment: the shim first on its path."""
    path = str(WALL_CLOCK_SHIM) + (f":{python_path}" if python_path else "")
    return {"PYTHONPATH": path, "LP_WALL_CLOCK_AHEAD": f"{plan.ahead:.0f}"}


def database_now() -> datetime:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT clock_timestamp()")
        value: datetime = cursor.fetchone()[0]
    return value


@dataclass
class ClockCheck:
    """The clock step (run once the nodes are up, before the load) and its invariants."""

    rehearsal: Any  # bench.cluster.Rehearsal: its fetch() reaches one web node directly
    plan: Plan
    learners: list[tuple[int, str]]  # (user id, session token), in the plan's zone
    answers: list[tuple[int, datetime, datetime, int]] = field(default_factory=list)
    progress: list[tuple[int, bool, int, int]] = field(default_factory=list)
    ready: dict[str, str] = field(default_factory=dict)

    def run(self) -> None:
        slug, checks = next(iter(self.rehearsal.checkable.items()))
        for index, (user_id, token) in enumerate(self.learners):
            node = ("web-b", "web-a")[index % 2]
            before = database_now()
            statuses = [
                self.rehearsal.fetch(node, "POST", f"/api/v1/checks/{check_id}/answers",
                                     token, body={"answer": answer})[0]
                for check_id, answer in checks
            ]  # fmt: skip
            after = database_now()
            self.answers.append((user_id, before, after, max(statuses)))
            _, _, through_a = self.rehearsal.fetch("web-a", "GET", "/api/v1/me/progress", token)
            _, _, through_b = self.rehearsal.fetch("web-b", "GET", "/api/v1/me/progress", token)
            self.progress.append((
                user_id, through_a == through_b,
                through_a.get("daily_goal", {}).get("xp_today", -1),
                through_b.get("daily_goal", {}).get("xp_today", -1),
            ))  # fmt: skip
        for node in ("web-a", "web-b"):
            _, _, ready = self.rehearsal.fetch(node, "GET", "/readyz", "")
            self.ready[node] = ready["checks"]["clock"]
        left = (self.plan.midnight - database_now()).total_seconds()
        print(f"  clock: {len(self.learners)} learners answered through web-b and web-a ({slug}), "
              f"{left:.0f}s before midnight in {self.plan.zone}; /readyz clock: "
              f"web-a {self.ready['web-a']}, web-b {self.ready['web-b']}")  # fmt: skip

    def invariants(self, after: Scrapes) -> list[tuple[str, bool, str]]:
        from progress.models import ActivityDay

        zone = ZoneInfo(self.plan.zone)
        wrong_day, counted = [], 0
        for user_id, before, answered, status in self.answers:
            expected = {before.astimezone(zone).date(), answered.astimezone(zone).date()}
            days = set(ActivityDay.objects.filter(user_id=user_id).values_list("day", flat=True))
            counted += bool(days)
            if status != 200 or not days or not days <= expected:
                shown = ", ".join(sorted(map(str, days))) or "none"
                wrong_day.append(f"{user_id}: {shown}, not {min(expected)}")
        differ = [f"{u}: {a} XP today through A, {b} through B" for u, same, a, b in self.progress
                  if not same]  # fmt: skip
        clamped = sum(v for scrape in after.values()
                      for v in scrape.get("lp_clock_skew_durations_total", {}).values())  # fmt: skip
        latency_sums = [v for scrape in after.values()
                        for v in scrape.get("lp_grading_latency_seconds_sum", {}).values()]  # fmt: skip
        ages = {node: sum(after[node].get("lp_leaderboard_rebuild_age_seconds", {}).values())
                for node in ("web-a", "web-b") if node in after}  # fmt: skip
        ages_apart = abs(ages.get("web-a", 0.0) - ages.get("web-b", 0.0))
        ahead = f"web-b {self.plan.ahead / 60:.0f} min ahead, learners in {self.plan.zone}"
        return [
            ("clock: each completion counts on the database's day",
             bool(self.answers) and not wrong_day,
             f"{ahead}; {counted} of {len(self.answers)} counted, "
             f"wrong: {'; '.join(wrong_day) or 'none'}"),
            ("clock: both nodes answer the same progress",
             bool(self.progress) and not differ,
             f"{len(self.progress)} learners read through A and B; "
             f"differ: {'; '.join(differ) or 'none'}"),
            ("clock: no negative latency, one board age",
             clamped == 0 and all(s >= 0 for s in latency_sums) and ages_apart < 10,
             f"{clamped:g} durations came out negative; grading latency sums "
             f"{min(latency_sums, default=0):.1f}..{max(latency_sums, default=0):.1f}s; board "
             f"age web-a {ages.get('web-a', 0):.0f}s, web-b {ages.get('web-b', 0):.0f}s"),
        ]  # fmt: skip
