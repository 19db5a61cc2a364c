"""The leaderboards: top learners by XP in a period, from the Redis boards or from SQL."""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F, QuerySet

from accounts.models import public_name
from learning_platform import clock
from progress import boards
from progress.models import LearnerPeriodXP, LearnerStats
from progress.periods import PERIODS, period_of
from progress.selectors.learners import today_in
from progress.selectors.levels import xp_total
from progress.streaks import day_start

LEADERBOARD_SIZE = 50

LEADERBOARD_MARGIN = 10

# The calendar week (Monday to Sunday) and month of learners' days (progress.periods), and all
# time. A learner's XP counts on the day it was earned on their clock (`XPAward.day`).
LEADERBOARD_PERIODS = (*PERIODS, "all")


def leaderboard_days(*, period: str, today: date) -> tuple[date, date] | None:
    """The first and last day of the period holding `today` (None: all time). Raises KeyError
    for an unknown period."""
    if period not in LEADERBOARD_PERIODS:
        raise KeyError(period)
    return period_of(period, today) if period in PERIODS else None


def leaderboard_first_day(*, period: str, today: date) -> date | None:
    """The first day a period counts (None: all time). Raises KeyError for an unknown period."""
    days = leaderboard_days(period=period, today=today)
    return days[0] if days is not None else None


def leaderboard(*, period: str, viewer: Any | None) -> dict[str, Any]:
    """Top learners by XP earned in the period, plus the viewer's own rank.

    The week and the month are the calendar ones holding the viewer's today (UTC's for a
    signed-out reader), of learners' days: `since` and `ends_at` are their bounds on the
    viewer's clock, `first_day` and `last_day` their dates. Learners who opted out (`show_on_leaderboard=False`) and inactive accounts
    never appear; a viewer who opted out still learns where they would stand. Ranks are
    competition ranks (equal XP, equal rank; equal XP listed by ascending id). Raises KeyError
    for an unknown period.

    From the Redis boards when they are on (1 query: the names of the top; 2 for a viewer who
    opted out), else, or when Redis cannot answer, from SQL over the XP-per-period rollup
    (at most 3 queries: the top is a range of its index, the viewer's rank a count of one).
    """
    zone = zoneinfo.ZoneInfo(viewer.time_zone) if viewer is not None else zoneinfo.ZoneInfo("UTC")
    today = today_in(zone, at=clock.now())
    days = leaderboard_days(period=period, today=today)
    bounds: dict[str, Any] = {"since": None, "ends_at": None, "first_day": None, "last_day": None}
    if days is not None:
        bounds = {
            "since": day_start(days[0], zone),
            "ends_at": day_start(days[1] + timedelta(days=1), zone),
            "first_day": days[0],
            "last_day": days[1],
        }
    if boards.enabled():
        try:
            rows, me = _leaderboard_from_redis(period=period, viewer=viewer, days=days, today=today)
        except boards.BoardUnavailable:
            pass
        else:
            return {"period": period, **bounds, "entries": rows, "me": me}
    rows, me = _leaderboard_from_sql(period=period, viewer=viewer, days=days)
    return {"period": period, **bounds, "entries": rows, "me": me}


def _on_leaderboard(viewer: Any) -> bool:
    return bool(viewer.show_on_leaderboard and viewer.is_active)


def _ranked(rows: Sequence[Mapping[str, Any]], *, viewer: Any | None) -> list[dict[str, Any]]:
    """Entries with competition ranks, from rows sorted by XP (best first)."""
    entries = []
    rank = 0
    for position, row in enumerate(rows, start=1):
        if position == 1 or row["xp"] != rows[position - 2]["xp"]:
            rank = position
        entries.append(
            {
                "rank": rank,
                "user_id": row["user_id"],
                # Without building a User per entry (a third of the board's CPU).
                "display_name": public_name(
                    display_name=row["display_name"], public_handle=row["handle"]
                ),
                "xp": row["xp"],
                "is_me": viewer is not None and row["user_id"] == viewer.pk,
            }
        )
    return entries


def _me_in(entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    mine = next((e for e in entries if e["is_me"]), None)
    return {"rank": mine["rank"], "xp": mine["xp"], "on_leaderboard": True} if mine else None


def _xp_in(*, period: str, user_id: int, days: tuple[date, date] | None) -> int:
    """The learner's XP in the period starting on days[0] (all time: None), from its rollup row
    (1 query)."""
    if days is None:
        return xp_total(user_id=user_id)
    xp = (
        LearnerPeriodXP.objects.filter(user_id=user_id, period=period, starts=days[0])
        .values_list("xp", flat=True)
        .first()
    )
    return xp or 0


def _visible_names(*, user_ids: list[int]) -> dict[int, tuple[str, str]]:
    """(display name, public handle) of those of the learners who may appear on a board (1 query,
    by primary key)."""
    if not user_ids:
        return {}
    rows = (
        get_user_model()
        .objects.filter(pk__in=user_ids, is_active=True, show_on_leaderboard=True)
        .values_list("id", "display_name", "public_handle")
    )
    return {pk: (display_name, handle) for pk, display_name, handle in rows}


def _leaderboard_from_redis(
    *, period: str, viewer: Any | None, days: tuple[date, date] | None, today: date
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    viewer_xp = None
    if viewer is not None and not _on_leaderboard(viewer):
        viewer_xp = _xp_in(period=period, user_id=viewer.pk, days=days)
    board = boards.read(
        today=today,
        period=period,
        # A few more than shown: a learner hidden since the last rebuild by a bulk update
        # (no signal) is dropped here rather than shown.
        count=LEADERBOARD_SIZE + LEADERBOARD_MARGIN,
        viewer_id=viewer.pk if viewer is not None else None,
        viewer_xp=viewer_xp,
    )
    names = _visible_names(user_ids=[user_id for user_id, _ in board.top])
    rows = [
        {
            "user_id": user_id,
            "xp": xp,
            "display_name": names[user_id][0],
            "handle": names[user_id][1],
        }
        for user_id, xp in board.top
        if user_id in names
    ][:LEADERBOARD_SIZE]
    entries = _ranked(rows, viewer=viewer)
    if viewer is None:
        return entries, None
    me = _me_in(entries)
    if me is None:
        assert board.ahead_of_viewer is not None  # read with the viewer's id
        me = {
            "rank": board.ahead_of_viewer + 1,
            "xp": board.viewer_xp,
            "on_leaderboard": _on_leaderboard(viewer),
        }
    return entries, me


def _leaderboard_from_sql(
    *, period: str, viewer: Any | None, days: tuple[date, date] | None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    visible_users = {"user__show_on_leaderboard": True, "user__is_active": True}
    names = {"display_name": F("user__display_name"), "handle": F("user__public_handle")}
    visible: QuerySet[Any, Any]
    top: QuerySet[Any, Any]
    if days is None:
        visible = (
            LearnerStats.objects.filter(xp_total__gt=0, **visible_users)
            .annotate(xp=F("xp_total"))
            .values("user_id", "xp")
        )
        top = visible.values("user_id", "xp", **names)
    else:
        visible = LearnerPeriodXP.objects.filter(
            period=period, starts=days[0], **visible_users
        ).values("user_id", "xp")
        top = visible.values("user_id", "xp", **names)
    rows = list(top.order_by("-xp", "user_id")[:LEADERBOARD_SIZE])
    entries = _ranked(rows, viewer=viewer)
    if viewer is None:
        return entries, None
    me = _me_in(entries)
    if me is None:
        my_xp = _xp_in(period=period, user_id=viewer.pk, days=days)
        ahead = visible.filter(xp__gt=my_xp).exclude(user_id=viewer.pk).count()
        me = {"rank": ahead + 1, "xp": my_xp, "on_leaderboard": _on_leaderboard(viewer)}
    return entries, me
