"""Telling the members of a closed cohort how their week ended: an in-app notification each,
and an e-mail for those who moved and take notifications by e-mail. Called by the close
(`services.close_cohort`) in its transaction, so the notifications commit with the tiers.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import NamedTuple

from leagues import rules
from leagues.models import Cohort
from notifications import services as notifications

NOTIFICATION_KIND = "league_result"
LEAGUE_URL = "/league"
MOVES = ("up", "down", "stayed")


class MemberResult(NamedTuple):
    user_id: int
    rank: int
    tier_after: int
    wants_email: bool


def result_key(week: date) -> str:
    """The notification's dedupe key: one a learner and week (their one membership of it)."""
    return f"league-result:{week.isoformat()}"


def move_of(*, tier: int, tier_after: int) -> str:
    if tier_after > tier:
        return "up"
    return "down" if tier_after < tier else "stayed"


def result_title(*, move: str, tier_after: int) -> str:
    name = rules.tier_name(tier_after)
    if move == "up":
        return f"You moved up to {name}"
    if move == "down":
        return f"You moved down to {name}"
    return f"You stayed in {name}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def tell_results(*, cohort: Cohort, members: list[MemberResult]) -> None:
    """One notification per member, at most once per learner and week (the notifications'
    unique (recipient, dedupe_key) settles a close run again). A move is news worth an
    e-mail for those who take notifications by e-mail; staying is said in the app only."""
    sunday = cohort.week + timedelta(days=6)
    week_words = f"{cohort.week.day} {cohort.week:%b} to {sunday.day} {sunday:%b %Y}"
    new: list[notifications.NewNotification] = []
    emailed: list[int] = []
    for member in members:
        move = move_of(tier=cohort.tier, tier_after=member.tier_after)
        email = member.wants_email and move != "stayed"
        new.append(
            notifications.NewNotification(
                recipient_id=member.user_id,
                kind=NOTIFICATION_KIND,
                title=result_title(move=move, tier_after=member.tier_after),
                body=f"You finished {_ordinal(member.rank)} of {len(members)} in the "
                f"{rules.tier_name(cohort.tier)} league, {week_words}.",
                url=LEAGUE_URL,
                dedupe_key=result_key(cohort.week),
                data={
                    "week": cohort.week.isoformat(),
                    "tier_before": cohort.tier,
                    "tier_after": member.tier_after,
                    "rank": member.rank,
                },
                email=email,
            )
        )
        if email:
            emailed.append(member.user_id)
    notifications.create_notifications(notifications=new)
    # After the commit, by one task for the cohort (it takes their ids; a task per learner cost
    # an outbox row and a publish each, about ten a cohort): each digest gathers that learner's
    # waiting notifications once, so a second close of the cohort sends nothing more.
    notifications.send_many_emails_after_commit(user_ids=emailed)
