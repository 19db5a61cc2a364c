"""What the leagues hold about a learner, for their copy of it: their place in the leagues and
their own weeks. Never the other members of their cohorts (names, addresses, XP): those are
theirs. Subscribed in LeaguesConfig.ready()."""

from __future__ import annotations

from typing import Any

from accounts.events import AccountDataAsked
from leagues import rules
from leagues.models import Leaguer, Membership


def _tier_name(tier: int | None) -> str | None:
    return None if tier is None else rules.tier_name(tier)


def export(event: AccountDataAsked) -> dict[str, Any]:
    leaguer = Leaguer.objects.filter(user_id=event.user_id).first()
    weeks = (
        Membership.objects.filter(user_id=event.user_id)
        .order_by("week")
        .values_list("week", "cohort__tier", "xp", "rank", "tier_after", "result_seen_at")
    )
    return {
        "league": {
            "tier": _tier_name(leaguer.tier if leaguer else rules.LOWEST),
            "opted_out": leaguer.opted_out if leaguer else False,
            "last_week": leaguer.last_week.isoformat() if leaguer and leaguer.last_week else None,
            "weeks": [
                {
                    "week": week.isoformat(),
                    # None: waiting to be placed (the previous week's close decides the tier).
                    "tier": _tier_name(tier),
                    "xp": xp,
                    "rank": rank,
                    "tier_after": _tier_name(tier_after),
                    "result_seen_at": seen.isoformat() if seen else None,
                }
                for week, tier, xp, rank, tier_after, seen in weeks
            ],
        }
    }
