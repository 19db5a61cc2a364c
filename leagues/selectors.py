"""Reads of the leagues: a learner's league this week as the league page shows it."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any, TypedDict
from zoneinfo import ZoneInfo

from django.db.models import F, Q

from accounts.models import public_name
from leagues import results, rules
from leagues.models import Leaguer, Membership
from progress.selectors import today_in


class LeagueMember(TypedDict):
    rank: int
    display_name: str
    xp: int
    you: bool


class LeagueResult(TypedDict):
    week: date
    week_last_day: date
    tier_before: dict[str, Any]
    tier_after: dict[str, Any]
    rank: int
    members: int
    move: str


class MyLeague(TypedDict):
    participating: bool
    placed: bool
    waiting: bool
    tier: dict[str, Any]
    cohort_size: int
    week_first_day: date
    week_last_day: date
    ends_at: datetime
    members: list[LeagueMember]
    promotion_line: int | None
    demotion_line: int | None
    result: LeagueResult | None


def _tier(tier: int) -> dict[str, Any]:
    return {"rank": tier + 1, "name": rules.tier_name(tier)}


def _result(membership: Membership | None) -> LeagueResult | None:
    """The week's result as the celebration says it, unless the learner saw it already."""
    if membership is None or membership.cohort is None or membership.result_seen_at is not None:
        return None
    cohort, tier_after = membership.cohort, membership.tier_after
    if tier_after is None or membership.rank is None:
        return None
    return {
        "week": membership.week,
        "week_last_day": membership.week + timedelta(days=6),
        "tier_before": _tier(cohort.tier),
        "tier_after": _tier(tier_after),
        "rank": membership.rank,
        "members": cohort.size,
        "move": results.move_of(tier=cohort.tier, tier_after=tier_after),
    }


def my_league(*, user_id: int, time_zone: str) -> MyLeague:
    """The learner's league in the week holding their today: their tier, and when placed their
    cohort ranked (XP, then who reached it first) with the lines of who moves up (positions up
    to `promotion_line`) and down (from `demotion_line`). Others appear by their public name
    only. With them, the result of the learner's last closed week until they saw it
    (`result`). Three queries when placed, two when not."""
    zone = ZoneInfo(time_zone)
    week = rules.week_start(today_in(zone))
    leaguer = Leaguer.objects.filter(user_id=user_id).first()
    # This week's membership and the last closed one, in one query.
    latest = (
        list(
            Membership.objects.select_related("cohort")
            .filter(user_id=user_id, week__lte=week)
            .filter(Q(week=week) | Q(tier_after__isnull=False))
            .order_by("-week")[:2]
        )
        if leaguer is not None and not leaguer.opted_out
        else []
    )
    membership = next((m for m in latest if m.week == week), None)
    last_closed = next((m for m in latest if m.tier_after is not None), None)
    cohort = membership.cohort if membership is not None else None
    if cohort is not None:
        tier = cohort.tier
    elif leaguer is None:
        tier = rules.LOWEST
    elif membership is None:
        tier = rules.tier_after_idling(tier=leaguer.tier, last_week=leaguer.last_week, week=week)
    else:
        tier = leaguer.tier  # waiting for last week's close, which may still move it
    members: list[LeagueMember] = []
    if cohort is not None:
        rows = (
            Membership.objects.filter(cohort_id=cohort.pk)
            .order_by("-xp", "reached_at", "user_id")
            .values("user_id", "xp", name=F("user__display_name"), handle=F("user__public_handle"))
        )
        members = [
            {
                "rank": rank,
                "display_name": public_name(display_name=row["name"], public_handle=row["handle"]),
                "xp": row["xp"],
                "you": row["user_id"] == user_id,
            }
            for rank, row in enumerate(rows, start=1)
        ]
    up, down = rules.lines(tier=tier, members=len(members)) if members else (None, None)
    return {
        "participating": leaguer is None or not leaguer.opted_out,
        "placed": cohort is not None,
        "waiting": membership is not None and cohort is None,
        "tier": _tier(tier),
        "cohort_size": rules.COHORT_SIZE,
        "week_first_day": week,
        "week_last_day": week + timedelta(days=6),
        "ends_at": rules.week_ends_at(week, zone),
        "members": members,
        "promotion_line": up,
        "demotion_line": down,
        "result": _result(last_closed),
    }
