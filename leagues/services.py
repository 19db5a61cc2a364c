"""Writes of the leagues: placement in a cohort with a week's first XP (`record_league_xp`,
the `xp_paid` subscriber; the ledger's trigger adds the XP after), the week's close and
leaving or joining the leagues."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import (
    Exists,
    F,
    OuterRef,
    Q,
)

from leagues import results, rules
from leagues.models import Cohort, Leaguer, Membership
from learning_platform import clock
from learning_platform.db import update_rows
from learning_platform.errors import NotFound
from progress import selectors as progress_selectors
from progress import services as progress
from progress.events import XpAwardsPaid

logger = logging.getLogger(__name__)

BATCH_SIZE = 200


# ZoneInfo keeps only its last few zones alive: a batch of learners in many zones would load
# the same zone files again and again.
_zone = lru_cache(maxsize=1024)(ZoneInfo)


@dataclass
class _WeekXP:
    xp: int
    reached_at: datetime
    time_zone: str


def record_league_xp(event: XpAwardsPaid) -> None:
    """Place the learners whose awards just paid are their first XP of a week, with that XP.
    Runs in the award's transaction (the ledger holds the learners' progress locks), so a
    placement commits with the XP or not at all. An award of 0 XP places nobody.

    The XP of a learner placed already was added by the ledger's trigger (migration 0004) in
    the statement that inserted the award: nothing to do here, and no query. A week the
    learner had XP in before (`latest_week_with_xp`) placed them then, or it declined to (they
    had left the leagues, or the week had ended where they live); `_place` decides the rest."""
    weeks: dict[tuple[int, date], _WeekXP] = {}
    for paid in event.awards:
        amount = paid.xp_after - paid.xp_before
        week = rules.week_start(paid.day)
        if amount <= 0 or week == paid.latest_week_with_xp:
            continue
        key = (paid.user_id, week)
        if key in weeks:
            weeks[key].xp += amount
            weeks[key].reached_at = max(weeks[key].reached_at, paid.awarded_at)
        else:
            weeks[key] = _WeekXP(amount, paid.awarded_at, paid.time_zone)
    if weeks:
        _place(weeks)


def _locked_leaguer(user_id: int) -> Leaguer:
    """The learner's Leaguer row, created if missing, locked until the transaction ends."""
    leaguer = Leaguer.objects.select_for_update().filter(user_id=user_id).first()
    if leaguer is None:
        Leaguer.objects.bulk_create([Leaguer(user_id=user_id)], ignore_conflicts=True)
        leaguer = Leaguer.objects.select_for_update().get(user_id=user_id)
    return leaguer


def _place(weeks: dict[tuple[int, date], _WeekXP]) -> None:
    """The learners' first XP of these weeks: a membership each in the open cohort of their
    tier near their UTC offset, or waiting for their previous week's close when that has not
    happened yet (it decides the tier). Those who left the leagues, whose week is closed or
    has ended where they live (XP synced late) are not placed."""
    users = sorted({u for u, _ in weeks})
    leaguers = {
        leaguer.user_id: leaguer
        for leaguer in Leaguer.objects.select_for_update().filter(user_id__in=users).order_by("pk")
    }
    known = [u for u in users if u in leaguers and not leaguers[u].opted_out]
    # Their memberships of these weeks (closed: an open one took the XP) and their open ones.
    weeks_of: dict[int, dict[date, bool]] = defaultdict(dict)
    if known:
        for user_id, week, tier_after in (
            Membership.objects.filter(user_id__in=known)
            .filter(Q(week__in={w for _, w in weeks}) | Q(tier_after__isnull=True))
            .values_list("user_id", "week", "tier_after")
        ):
            weeks_of[user_id][week] = tier_after is None
    now = clock.now()
    joining: list[tuple[Membership, Leaguer, datetime]] = []
    waiting: list[Membership] = []
    for (user_id, week), earned in sorted(weeks.items()):
        leaguer = leaguers.setdefault(user_id, Leaguer(user_id=user_id))
        if leaguer.opted_out or week in weeks_of[user_id]:
            continue
        zone = _zone(earned.time_zone)
        ends_at = rules.week_ends_at(week, zone)
        if ends_at + rules.CLOSE_MARGIN <= now:
            continue
        membership = Membership(
            user_id=user_id,
            week=week,
            offset=rules.offset_minutes(zone, now),
            xp=earned.xp,
            reached_at=earned.reached_at,
        )
        if any(is_open for w, is_open in weeks_of[user_id].items() if w < week):
            waiting.append(membership)
        else:
            joining.append((membership, leaguer, ends_at))
        weeks_of[user_id][week] = True
    _join(joining)
    Membership.objects.bulk_create([m for m, _, _ in joining] + waiting)


def _join(joining: list[tuple[Membership, Leaguer, datetime]]) -> None:
    """Count each learner into the open cohort of their tier (after any idle weeks) whose
    anchor is within the band of their offset, the oldest first, or a new one; sets each
    membership's cohort (unsaved). The cohorts' rows are locked while counted."""
    if not joining:
        return
    for membership, leaguer, _ in joining:
        leaguer.tier = rules.tier_after_idling(
            tier=leaguer.tier, last_week=leaguer.last_week, week=membership.week
        )
        leaguer.last_week = membership.week
    learners = [leaguer for _, leaguer, _ in joining]
    # A row that left the leagues meanwhile wins: the ledger's XP must not fail for this.
    known = [x for x in learners if not x._state.adding]
    Leaguer.objects.bulk_create([x for x in learners if x._state.adding], ignore_conflicts=True)
    now = clock.now()
    update_rows(
        Leaguer,
        keys=["user"],
        fields=["tier", "last_week", "updated_at"],
        rows=[(x.user_id, x.tier, x.last_week, now) for x in known],
    )
    cohorts = list(
        Cohort.objects.select_for_update()
        .filter(_bands(joining), closed_at__isnull=True, size__lt=rules.COHORT_SIZE)
        .order_by("pk")
    )
    counted: dict[int, int] = defaultdict(int)
    for membership, leaguer, ends_at in joining:
        cohort = next(
            (
                c
                for c in cohorts
                if (c.week, c.tier) == (membership.week, leaguer.tier)
                and c.size < rules.COHORT_SIZE
                and rules.in_band(c.anchor_offset, membership.offset)
            ),
            None,
        )
        if cohort is None:
            cohort = Cohort(
                week=membership.week,
                tier=leaguer.tier,
                anchor_offset=membership.offset,
                ends_at=ends_at,
            )
            cohorts.append(cohort)
        cohort.size += 1
        cohort.ends_at = max(cohort.ends_at, ends_at)
        if cohort.pk is not None:
            counted[cohort.pk] += 1
        membership.cohort = cohort
    Cohort.objects.bulk_create([c for c in cohorts if c.pk is None])
    # The counted rows are locked since they were read (on SQLite this transaction has written
    # already, so no other writer comes between), so their new sizes are what was read plus
    # what was counted here; the check constraint still says no to a 31st.
    update_rows(
        Cohort,
        keys=["id"],
        fields=["size", "ends_at"],
        rows=[(c.pk, c.size, c.ends_at) for c in cohorts if c.pk in counted],
    )
    for membership, _, _ in joining:
        membership.cohort_id = membership.cohort.pk if membership.cohort else None


def _bands(joining: list[tuple[Membership, Leaguer, datetime]]) -> Q:
    """The cohorts the learners may join: per week and tier, the anchors within the band of
    their offsets, overlapping bands merged (a batch of hundreds of learners in a few zones
    asks for a few ranges, not a condition per learner)."""
    offsets: dict[tuple[date, int], set[int]] = defaultdict(set)
    for membership, leaguer, _ in joining:
        offsets[membership.week, leaguer.tier].add(membership.offset)
    wanted = Q()
    for (week, tier), found in sorted(offsets.items()):
        ranges: list[list[int]] = []
        for offset in sorted(found):
            low, high = offset - rules.BAND_MINUTES, offset + rules.BAND_MINUTES
            if ranges and low <= ranges[-1][1]:
                ranges[-1][1] = high
            else:
                ranges.append([low, high])
        for low, high in ranges:
            wanted |= Q(week=week, tier=tier, anchor_offset__gte=low, anchor_offset__lte=high)
    return wanted


def place_waiting(*, batch_size: int = BATCH_SIZE) -> int:
    """Place the learners who waited for last week's close, now that it happened (each in its
    own transaction, in bounded batches). Idempotent; returns how many were placed."""
    placed = 0
    after = 0
    while True:
        # Only those whose earlier weeks are all closed: the others wait on.
        open_before = Membership.objects.filter(
            user_id=OuterRef("user_id"), week__lt=OuterRef("week"), tier_after__isnull=True
        )
        waiting = list(
            Membership.objects.filter(cohort__isnull=True, pk__gt=after)
            .exclude(Exists(open_before))
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
        leaguer = _locked_leaguer(membership.user_id)
        earlier = Membership.objects.filter(
            user_id=membership.user_id, week__lt=membership.week, tier_after__isnull=True
        )
        if earlier.exists():
            return False
        zone_name = get_user_model().objects.values_list("time_zone", flat=True)
        zone = ZoneInfo(zone_name.get(pk=membership.user_id))
        _join([(membership, leaguer, rules.week_ends_at(membership.week, zone))])
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
        ranked = list(
            Membership.objects.filter(cohort_id=cohort.pk)
            .order_by("-xp", "reached_at", "user_id")
            .values_list("pk", "user_id", "user__email_notifications")
        )
        members = [(pk, user_id) for pk, user_id, _ in ranked]
        after = rules.tiers_after(tier=cohort.tier, members=len(members))
        # The cohort's lock keeps its members' results to this close; tiers are absolute.
        update_rows(
            Membership,
            keys=["id"],
            fields=["tier_after", "rank"],
            rows=[
                (pk, t, rank)
                for rank, ((pk, _), t) in enumerate(zip(members, after, strict=True), start=1)
            ],
        )
        # A learner's tier moves only by the close of their latest week (placement waits
        # for it), so setting it here never undoes a later week's.
        update_rows(
            Leaguer,
            keys=["user"],
            fields=["tier"],
            rows=[(u, t) for (_, u), t in zip(members, after, strict=True)],
        )
        cohort.closed_at = clock.now()
        cohort.save(update_fields=["closed_at"])
        results.tell_results(
            cohort=cohort,
            members=[
                results.MemberResult(user_id, rank, tier_after, email)
                for rank, ((_, user_id, email), tier_after) in enumerate(
                    zip(ranked, after, strict=True), start=1
                )
            ],
        )
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
    is taken off the list of their cohort still open this week. Joining again places them at
    once with the XP of their latest week in the ledger, if that week has not ended where they
    live (and with their next XP otherwise)."""
    with transaction.atomic():
        if participating:
            # Placing reads the learner's XP: no award of theirs may land meanwhile. Their
            # progress lock first, the order of the ledger's writers (which place too).
            progress.lock_learner(user_id=user_id)
        leaguer = _locked_leaguer(user_id)
        was_out = leaguer.opted_out
        leaguer.opted_out = not participating
        leaguer.save(update_fields=["opted_out", "updated_at"])
        if participating:
            if was_out:
                _place_with_latest_week(user_id)
            return
        for membership in Membership.objects.select_for_update().filter(
            user_id=user_id, tier_after__isnull=True
        ):
            if membership.cohort_id is not None:
                Cohort.objects.filter(pk=membership.cohort_id, closed_at__isnull=True).update(
                    size=F("size") - 1
                )
            membership.delete()


def _place_with_latest_week(user_id: int) -> None:
    """Place the learner with the XP of their latest week, as if it were their first XP of it
    now; `_place` declines a week that has ended where they live or holds them already."""
    latest = progress_selectors.latest_week_xp(user_id=user_id)
    if latest is None:
        return
    time_zone = get_user_model().objects.values_list("time_zone", flat=True).get(pk=user_id)
    _place({(user_id, latest.week): _WeekXP(latest.xp, latest.reached_at, time_zone)})


class ResultNotFound(NotFound):
    code = "league_result_not_found"


def mark_result_seen(*, user_id: int, week: date) -> None:
    """Note that the learner saw the result of `week` (its Monday), so no device shows it
    again. Idempotent: the first time is kept. A week the learner has no closed result for
    (not placed in it, or not closed yet) is not found."""
    marked = Membership.objects.filter(
        user_id=user_id, week=week, tier_after__isnull=False, result_seen_at__isnull=True
    ).update(result_seen_at=clock.now())
    if marked:
        return
    if not Membership.objects.filter(user_id=user_id, week=week, tier_after__isnull=False).exists():
        raise ResultNotFound("You have no result for that week.")
