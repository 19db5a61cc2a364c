"""One clock for every node: the database's.

The times that decide a learner's day, the order of events or an SLA (completions, XP awards,
answers, submissions, the sync window, board and outbox ages) are read here, never from the
node's own wall clock. A node whose clock drifts (NTP down, a VM restored from a snapshot)
would otherwise stamp a completion at 23:51 with tomorrow's date and cost the learner a streak
day, and two nodes would disagree about "today" for as long as they are apart.

Each process measures its wall clock against the database's (`clock_timestamp()` on
PostgreSQL, the OS clock of the machine that holds the file on SQLite) at most every
`REFRESH_SECONDS`, and `now()` adds the offset once it is beyond `TOLERANCE_SECONDS`: below
that, the network's round trip is larger than what it would correct. The offset is per
process (a module global) because the wall clock is too; measuring it on each call would cost
a query per timestamp. `/readyz` names a node that is off (`clock: skewed`) and
`lp_clock_skew_seconds` gives the figure (docs/operations.md, "Clock skew").

CLOCK_FROM_DATABASE=false turns the correction off (the tests, which move the node's clock
with time-machine, and single-machine installs that want no extra query).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from learning_platform import metrics
from learning_platform.db import for_vendor

logger = logging.getLogger(__name__)

REFRESH_SECONDS = 30.0
TOLERANCE_SECONDS = 2.0
NOISE_SECONDS = 0.1


@dataclass(frozen=True)
class Reading:
    offset: float  # seconds to add to this node's wall clock to get the database's
    measured_at: float  # time.monotonic() of the measurement, or of the failed attempt
    known: bool  # False: never measured (the database did not answer)


_lock = threading.Lock()
_reading = Reading(offset=0.0, measured_at=float("-inf"), known=False)


def now() -> datetime:
    """The current time on the database's clock (aware, UTC)."""
    return timezone.now() + timedelta(seconds=applied_offset())


def timestamp() -> float:
    """`now()` as seconds since the epoch, for stamps compared across processes."""
    return time.time() + applied_offset()


def applied_offset() -> float:
    """The correction `now()` applies: the offset once beyond the tolerance, else 0."""
    if not settings.CLOCK_FROM_DATABASE:
        return 0.0
    offset = reading().offset
    return offset if abs(offset) > TOLERANCE_SECONDS else 0.0


def reading() -> Reading:
    """This process's latest measurement, measured again when older than REFRESH_SECONDS."""
    global _reading
    current = _reading
    if time.monotonic() - current.measured_at < REFRESH_SECONDS:
        return current
    with _lock:
        if time.monotonic() - _reading.measured_at >= REFRESH_SECONDS:
            measured = _measure()
            if measured is None:  # keep the last offset; try again after REFRESH_SECONDS
                _reading = Reading(_reading.offset, time.monotonic(), _reading.known)
            else:
                _reading = Reading(measured, time.monotonic(), True)
                metrics.CLOCK_SKEW.labels("database").set(measured)
        return _reading


def forget() -> None:
    """Measure again at the next call (tests; a process that knows its clock was stepped)."""
    global _reading
    with _lock:
        _reading = Reading(offset=0.0, measured_at=float("-inf"), known=False)


def state() -> str:
    """For /readyz: `ok`, `skewed` (corrected, beyond the tolerance) or `unknown`."""
    if not settings.CLOCK_FROM_DATABASE:
        return "node"  # this node's own clock, by configuration
    current = reading()
    if not current.known:
        return "unknown"
    return "skewed" if abs(current.offset) > TOLERANCE_SECONDS else "ok"


def elapsed(seconds: float, *, measure: str) -> float:
    """A duration measured across processes (each stamp from its own node): never negative.
    A negative one comes from clocks apart: read as 0, and counted as clock skew when beyond
    what measuring an offset over the network leaves (NOISE_SECONDS)."""
    if seconds >= 0:
        return seconds
    if seconds < -NOISE_SECONDS:
        metrics.CLOCK_SKEW_DURATIONS.labels(measure).inc()
    return 0.0


def _measure() -> float | None:
    # SQL text: the server's clock at this instant (clock_timestamp(); the ORM's Now() is the
    # statement's start, and only inside a query on a table).
    sql = for_vendor(
        postgresql="SELECT clock_timestamp()",
        sqlite="SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')",
    )
    try:
        # A savepoint inside a transaction: a failed read leaves the caller's work usable.
        with transaction.atomic(), connection.cursor() as cursor:
            before = time.time()
            cursor.execute(sql)
            value = cursor.fetchone()[0]
            after = time.time()
    except Exception:
        logger.warning("clock: the database's clock could not be read", exc_info=True)
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value).replace(tzinfo=UTC)
    return float(value.timestamp() - (before + after) / 2)
