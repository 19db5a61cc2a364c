"""Waiting in tests for what another process or thread does, by polling with a deadline.

A test that needs time to pass moves the clock (time-machine) instead. These wait for a worker,
a server or another thread, whose progress no clock moves: they poll often (20 ms) so that a
test waits about as long as the work takes, and fail with what explains the wait after
`timeout` seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from django.db import connection

_T = TypeVar("_T")
POLL_INTERVAL = 0.02


def wait_until(
    condition: Callable[[], _T],
    *,
    timeout: float,
    failure: Callable[[], str] = lambda: "",
    not_yet: tuple[type[BaseException], ...] = (),
    interval: float = POLL_INTERVAL,
) -> _T:
    """`condition()`'s first true answer. An exception of `not_yet` counts as false (a server
    still starting); after `timeout` seconds, AssertionError with `failure()` (a log)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            answer = condition()
            if answer:
                return answer
        except not_yet:
            pass
        if time.monotonic() >= deadline:
            raise AssertionError(f"not true within {timeout} s. {failure()}")
        time.sleep(interval)


def another_connection_awaits_a_lock() -> bool:
    """Whether another connection to this test database waits for a lock (PostgreSQL; on
    SQLite, which has no such view, always True)."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        # Statistics views are a snapshot kept until the transaction ends: a caller holding
        # locks in a transaction would see the first answer again and again.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        (waiting,) = cursor.fetchone()
    return bool(waiting)
