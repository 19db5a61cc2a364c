"""Writes of the leagues: league XP from the ledger (`record_league_xp`, the `xp_paid`
subscriber), placement in a cohort, the week's close and leaving or joining the leagues."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Case, F, Value, When
from django.db.models.functions import Greatest

from leagues import rules
from leagues.models import Cohort, Leaguer, Membership
from learning_platform import clock
from progress.events import XpAwardsPaid

logger = logging.getLogger(__name__)

BATCH_SIZE = 200


@dataclass
class _WeekXP:
    xp: int
    reached_at: datetime
    time_zone: str


def record_league_xp(event: XpAwardsPaid) -> None:
    """Add the awards just paid to their learners' league XP for the week of each award's stored
    day, placing a learner with their first XP of that week. Runs in the award's transaction
    (the ledger holds the learners' progress locks), so league XP commits with the XP or not at
    all. An award of 0 XP places nobody; a week already closed takes no more XP. One statement
    a learner once placed; a placement costs about seven, once a week."""
    weeks: dict[tuple[int, date], _WeekXP] = {}
    for paid in event.awards:
        amount = paid.xp_after - paid.xp_before
        if amount <= 0:
            continue
        key = (paid.user_id, rules.week_start(paid.day))
        if key in weeks:
            weeks[key].xp += amount
            weeks[key].reached_at = max(weeks[key].reached_at, paid.awarded_at)
        else:
            weeks[key] = _WeekXP(amount, paid.awarded_at, paid.time_zone)
    for (user_id, week), earned in sorted(weeks.items()):
        added = Membership.objects.filter(
            user_id=user_id, week=week, tier_after__isnull=True
        ).update(
            xp=F("xp") + earned.xp, reached_at=Greatest("reached_at", Value(earned.reached_at))
        )
        if not added:
            _place(user_id=user_id, week=week, earned=earned)


def _locked_leaguer(user_id: int) -> Leaguer:
    """The learner's Leaguer row, created if missing, locked until the transaction ends."""
    leaguer = Leaguer.objects.select_for_update().filter(user_id=user_id).first()
    if leaguer is None:
        Leaguer.objects.bulk_create([Leaguer(user_id=user_id)], ignore_conflicts=True)
        leaguer = Leaguer.objects.select_for_update().get(user_id=user_id)
    return leaguer


def _place(*, user_id: int, week: date, earned: _WeekXP) -> None:
    """The learner's first XP of `week`: a membership in the open cohort of their tier near
    their UTC offset, or waiting for last week's close when that has not happened yet."""
    leaguer = Leaguer.objects.select_for_update().filter(user_id=user_id).first()
    latest: list[tuple[date, int | None]] = []
    if leaguer is None:
        # Written with the first placement (`_join_cohort`): no week before, nothing to read.
        leaguer = Leaguer(user_id=user_id)
    elif leaguer.opted_out:
        return
    else:
        latest = list(
            Membership.objects.filter(user_id=user_id, week__lte=week)
            .order_by("-week")
            .values_list("week", "tier_after")[:1]
        )
    if latest and latest[0][0] == week:
        return  # the week is closed already (an open one took the XP above)
    now = clock.now()
    zone = ZoneInfo(earned.time_zone)
    ends_at = rules.week_ends_at(week, zone)
    if ends_at + rules.CLOSE_MARGIN <= now:
        return  # XP synced after the week ended where the learner lives
    membership = Membership(
        user_id=user_id,
        week=week,
        offset=rules.offset_minutes(zone, now),
        xp=earned.xp,
        reached_at=earned.reached_at,
    )
    # Last week's close decides this week's tier: until it happened, the learner waits.
    if not (latest and latest[0][1] is None):
        membership.cohort = _join_cohort(leaguer=leaguer, membership=membership, ends_at=ends_at)
    membership.save(force_insert=True)


def _waits_for_close(*, user_id: int, week: date) -> bool:
    """Whether the learner's last week before `week` is not closed yet (their tier is open)."""
    latest = list(
        Membership.objects.filter(user_id=user_id, week__lt=week)
        .order_by("-week")
        .values_list("tier_after", flat=True)[:1]
    )
    return bool(latest) and latest[0] is None


def _join_cohort(*, leaguer: Leaguer, membership: Membership, ends_at: datetime) -> Cohort:
    """Count the learner into the open cohort of their tier (after any idle weeks) whose anchor
    is within the band of their offset, or open one; the cohort's row is locked while counted."""
    week = membership.week
    leaguer.tier = rules.tier_after_idling(
        tier=leaguer.tier, last_week=leaguer.last_week, week=week
    )
    leaguer.last_week = week
    if leaguer._state.adding:
        # A row that left the leagues meanwhile wins: the ledger's XP must not fail for this.
        Leaguer.objects.bulk_create([leaguer], ignore_conflicts=True)
    else:
        leaguer.save(update_fields=["tier", "last_week", "updated_at"])
    offset = membership.offset
    while True:
        cohort = (
            Cohort.objects.select_for_update()
            .filter(
                week=week,
                tier=leaguer.tier,
                closed_at__isnull=True,
                size__lt=rules.COHORT_SIZE,
                anchor_offset__gte=offset - rules.BAND_MINUTES,
                anchor_offset__lte=offset + rules.BAND_MINUTES,
            )
            .order_by("id")
            .first()
        )
        if cohort is None:
            return Cohort.objects.create(
                week=week, tier=leaguer.tier, anchor_offset=offset, size=1, ends_at=ends_at
            )
        # The size is checked again by the UPDATE itself: on a database without row locks
        # (SQLite) another writer may have filled the cohort since it was read.
        counted = Cohort.objects.filter(pk=cohort.pk, size__lt=rules.COHORT_SIZE).update(
            size=F("size") + 1, ends_at=max(cohort.ends_at, ends_at)
        )
        if counted:
            return cohort


def place_waiting(*, batch_size: int = BATCH_SIZE) -> int:
    """Place the learners who waited for last week's close, now that it happened (each in its
    own transaction, in bounded batches). Idempotent; returns how many were placed."""
    placed = 0
    after = 0
    while True:
        waiting = list(
            Membership.objects.filter(cohort__isnull=True, pk__gt=after)
            .order_by("pk")
            .values_list("pk", flat=True)[:batch_size]
        )
        for pk in waiting:
            placed += _place_one_waiting(membership_id=pk)
        if len(waiting) < batch_size:
            return placed
        after = waiting[-1]


def _place_one_waiting(*, membership_id: int) -> bool:
    with transaction.atomic():
        membership = (
            Membership.objects.select_for_update()
            .filter(pk=membership_id, cohort__isnull=True)
            .first()
        )
        if membership is None:
            return False
        leaguer = Leaguer.objects.select_for_update().get(user_id=membership.user_id)
        if _waits_for_close(user_id=membership.user_id, week=membership.week):
            return False
        zone_name = get_user_model().objects.values_list("time_zone", flat=True)
        zone = ZoneInfo(zone_name.get(pk=membership.user_id))
        ends_at = rules.week_ends_at(membership.week, zone)
        membership.cohort = _join_cohort(leaguer=leaguer, membership=membership, ends_at=ends_at)
        membership.save(update_fields=["cohort"])
        return True


def close_cohort(*, cohort_id: int) -> bool:
    """Close the cohort once its week has ended for all its members: rank its members (XP,
    then who reached it first, then id), set each one's tier after the week
    (`rules.tiers_after`) on the membership and the learner, and mark it closed, in one
    transaction. Idempotent: a closed cohort, or one whose week has not ended (a member placed
    since it was found due may have moved its end), is left as it is (False)."""
    with transaction.atomic():
        cohort = (
            Cohort.objects.select_for_update()
            .filter(
                pk=cohort_id,
                closed_at__isnull=True,
                ends_at__lte=clock.now() - rules.CLOSE_MARGIN,
            )
            .first()
        )
        if cohort is None:
            return False
        members = list(
            Membership.objects.filter(cohort_id=cohort.pk)
            .order_by("-xp", "reached_at", "user_id")
            .values_list("pk", "user_id")
        )
        after = rules.tiers_after(tier=cohort.tier, members=len(members))
        if members:
            Membership.objects.filter(cohort_id=cohort.pk).update(
                tier_after=Case(
                    *(When(pk=pk, then=Value(t)) for (pk, _), t in zip(members, after, strict=True))
                )
            )
            # A learner's tier moves only by the close of their latest week (placement waits
            # for it), so setting it here never undoes a later week's.
            Leaguer.objects.filter(user_id__in=[u for _, u in members]).update(
                tier=Case(
                    *(
                        When(user_id=u, then=Value(t))
                        for (_, u), t in zip(members, after, strict=True)
                    )
                )
            )
        cohort.closed_at = clock.now()
        cohort.save(update_fields=["closed_at"])
        return True


def close_ended_cohorts(*, batch_size: int = BATCH_SIZE) -> int:
    """Close every cohort whose week has ended for all its members (plus `CLOSE_MARGIN`), each
    in its own transaction, then place the learners who waited for those closes. Idempotent
    and resumable: a run killed mid-way leaves closed cohorts closed and the rest to the next.
    Returns how many cohorts this run closed."""
    closed = 0
    while True:
        due = list(
            Cohort.objects.filter(
                closed_at__isnull=True, ends_at__lte=clock.now() - rules.CLOSE_MARGIN
            )
            .order_by("ends_at", "pk")
            .values_list("pk", flat=True)[:batch_size]
        )
        for pk in due:
            closed += close_cohort(cohort_id=pk)
        if len(due) < batch_size:
            break
    place_waiting(batch_size=batch_size)
    return closed


def set_participation(*, user_id: int, participating: bool) -> None:
    """Take part in the leagues, or leave them: a learner who left is placed in no cohort and
    is taken off the list of their cohort still open this week (their league XP of it is
    dropped; joining again places them with their next XP)."""
    with transaction.atomic():
        leaguer = _locked_leaguer(user_id)
        leaguer.opted_out = not participating
        leaguer.save(update_fields=["opted_out", "updated_at"])
        if participating:
            return
        for membership in Membership.objects.select_for_update().filter(
            user_id=user_id, tier_after__isnull=True
        ):
            if membership.cohort_id is not None:
                Cohort.objects.filter(pk=membership.cohort_id, closed_at__isnull=True).update(
                    size=F("size") - 1
                )
            membership.delete()
