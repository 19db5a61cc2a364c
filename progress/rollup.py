"""The XP rollups per learner and day (LearnerDayXP) and per learner and calendar week or month
(LearnerPeriodXP), kept by a trigger on the XP ledger.

A trigger, not application code, so every insert into the ledger (the award, a bulk load, a
hand-written INSERT) updates the rollup in the same statement, and no code path adds a query
for it. Migrations 0004, 0018 and 0019 install it (PostgreSQL: one statement-level trigger per INSERT, whose
transition table holds only the rows actually inserted, not those ON CONFLICT skipped; SQLite:
one per row). Days are learners' days (`XPAward.day`, the one day rule), as the calendar and the
boards count them; a row without one (written by hand or by a bulk load) counts on its UTC day.
"""

from __future__ import annotations

from datetime import UTC
from itertools import islice

from django.db import transaction
from django.db.models import Sum
from django.db.models.functions import Coalesce, TruncDate, TruncMonth, TruncWeek

from learning_platform.db import lock_against_writes
from progress.models import LearnerDayXP, LearnerPeriodXP, XPAward

_BATCH = 5000


def refill_from_ledger() -> int:
    """Recompute both rollups from the ledger (a repair); returns the number of per-day rows.

    Inserts into the ledger wait meanwhile (reads go on), so no award lands between the delete
    and the refill.
    """
    with transaction.atomic():
        lock_against_writes(XPAward)
        LearnerDayXP.objects.all().delete()
        days = (
            XPAward.objects.annotate(board_day=Coalesce("day", TruncDate("awarded_at", tzinfo=UTC)))
            .values_list("user_id", "board_day")
            .annotate(xp=Sum("amount"))
            .order_by()
            .iterator(chunk_size=_BATCH)
        )
        written = 0
        while batch := [
            LearnerDayXP(user_id=user_id, day=day, xp=xp)
            for user_id, day, xp in islice(days, _BATCH)
        ]:
            LearnerDayXP.objects.bulk_create(batch)
            written += len(batch)
        _refill_periods()
    return written


def _refill_periods() -> None:
    """Each week's and month's XP as the sum of its days (the per-day rollup just refilled)."""
    LearnerPeriodXP.objects.all().delete()
    for period, trunc in (("week", TruncWeek), ("month", TruncMonth)):
        sums = (
            LearnerDayXP.objects.annotate(starts=trunc("day"))
            .values_list("user_id", "starts")
            .annotate(xp=Sum("xp"))
            .order_by()
            .iterator(chunk_size=_BATCH)
        )
        while batch := [
            LearnerPeriodXP(user_id=user_id, period=period, starts=starts, xp=xp)
            for user_id, starts, xp in islice(sums, _BATCH)
        ]:
            LearnerPeriodXP.objects.bulk_create(batch)
