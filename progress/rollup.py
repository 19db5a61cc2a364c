"""The XP-per-learner-and-day rollup (LearnerDayXP), kept by a trigger on the XP ledger.

A trigger, not application code, so every insert into the ledger (the award, a bulk load, a
hand-written INSERT) updates the rollup in the same statement, and no code path adds a query
for it. Migration 0004 installs it (PostgreSQL: one statement-level trigger per INSERT, whose
transition table holds only the rows actually inserted, not those ON CONFLICT skipped; SQLite:
one per row). Days are learners' days (`XPAward.day`, the one day rule), as the calendar and the
boards count them; a row without one (written by hand or by a bulk load) counts on its UTC day.
"""

from __future__ import annotations

from datetime import UTC
from itertools import islice

from django.db import transaction
from django.db.models import Sum
from django.db.models.functions import Coalesce, TruncDate

from learning_platform.db import lock_against_writes
from progress.models import LearnerDayXP, XPAward

_BATCH = 5000


def refill_from_ledger() -> int:
    """Recompute the whole rollup from the ledger (a repair); returns the number of rows.

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
    return written
