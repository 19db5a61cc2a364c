import itertools
from datetime import datetime

import pytest
import time_machine

from progress import services as progress

_source_ids = itertools.count(1)


@pytest.fixture
def earn(db):
    """`earn(user, xp, at)`: pay the learner `xp` for a new lesson at the instant `at`, the clock
    travelled there (the ledger decides the award's day, as in production)."""

    def pay(user, xp: int, at: datetime) -> None:
        with time_machine.travel(at, tick=False):
            progress.award_xp(awards=[progress.Award(user.id, "lesson", next(_source_ids), xp)])

    return pay
