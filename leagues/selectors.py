"""Reads of the leagues: a learner's league this week as the league page shows it."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any, TypedDict
from zoneinfo import ZoneInfo

from django.db.models import F

from accounts.models import public_name
from leagues import rules
from leagues.models import Leaguer, Membership
from progress.selectors import today_in


class LeagueMember(TypedDict):
    rank: int
    display_name: str
    xp: int
    you: bool


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


def my_league(*, user_id: int, time_zone: str) -> MyLeague:
    """The learner's league in the week holding their today: their tier, and when placed their
    cohort ranked (XP, then who reached it first) with the lines of who moves up (positions up
    to `promotion_line`) and down (from `demotion_line`). Others appear by their public name
    only. Three queries when placed, two when not."""
    zone = ZoneInfo(time_zone)
    week = rules.week_start(today_in(zone))
    leaguer = Leaguer.objects.filter(user_id=user_id).first()
    membership = (
        Membership.objects.select_related("cohort").filter(user_id=user_id, week=week).first()
        if leaguer is not None and not leaguer.opted_out
        else None
    )
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
        "tier": {"rank": tier + 1, "name": rules.tier_name(tier)},
        "cohort_size": rules.COHORT_SIZE,
        "week_first_day": week,
        "week_last_day": week + timedelta(days=6),
        "ends_at": rules.week_ends_at(week, zone),
        "members": members,
        "promotion_line": up,
        "demotion_line": down,
    }
