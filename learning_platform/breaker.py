"""A circuit breaker: after a failure, leave a dependency alone for a while.

Redis (the cache), the broker (the outbox) and the leaderboards' Redis each use one, so that
during an outage requests pay one connection timeout per pause, not one each:

- **closed**: calls go through;
- **open**: for `reset_after` seconds after a failure, callers skip the dependency (and answer
  as when it is down: a cache miss, a row kept for the sweep, the boards from SQL);
- **half-open**: the pause is over and nothing has succeeded since: calls go through again; the
  first success closes the breaker, a failure opens it for another `reset_after` seconds.

One failure opens it: each of these dependencies fails by not answering within a timeout, and a
second timeout would only double what the first request already waited.

Not pybreaker (tried and rejected): it holds the breaker's lock for the whole guarded call, so
while one thread waits on a dead Redis every other thread of the process waits behind that lock,
which is the wait a breaker exists to spare. Here the state is two floats written without a lock
around the call; two threads failing at once both open it, to the same end.

The clock is the wall clock (`time.time`, which tests move with time-machine); a clock set back
past the failure closes the pause rather than stretching it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from enum import StrEnum


class State(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half-open"


class Breaker:
    def __init__(self, name: str, *, reset_after: float | Callable[[], float]) -> None:
        """`reset_after`: seconds of pause after a failure, or a function that reads them (from
        the settings, when they may change while the process runs: tests)."""
        self.name = name
        self._reset_after = reset_after
        self._opened_at: float | None = None

    @property
    def reset_after(self) -> float:
        return float(self._reset_after() if callable(self._reset_after) else self._reset_after)

    @property
    def state(self) -> State:
        opened_at = self._opened_at
        if opened_at is None:
            return State.CLOSED
        if opened_at <= time.time() < opened_at + self.reset_after:
            return State.OPEN
        return State.HALF_OPEN

    def is_open(self) -> bool:
        """Whether callers should skip the dependency now."""
        return self.state is State.OPEN

    def failed(self) -> bool:
        """A call found the dependency down: open (again) from now. Whether it was not open
        already (the caller logs the outage once, not once per request)."""
        was_open = self.is_open()
        self._opened_at = time.time()
        return not was_open

    def succeeded(self) -> None:
        """A call went through: close (cheap enough to call after every call)."""
        if self._opened_at is not None:
            self._opened_at = None

    def reset(self) -> None:
        """Close now, whatever the state: the next call tries (a probe, a sweep, a test)."""
        self._opened_at = None

    def __repr__(self) -> str:
        return f"<Breaker {self.name}: {self.state}>"


_named: dict[str, Breaker] = {}
_named_lock = threading.Lock()


def breaker_for(name: str, *, reset_after: float | Callable[[], float]) -> Breaker:
    """This process's breaker of that name, made on first use (its `reset_after` then): one per
    dependency, shared by the process's threads."""
    found = _named.get(name)
    if found is None:
        with _named_lock:
            found = _named.setdefault(name, Breaker(name, reset_after=reset_after))
    return found


def reset_all(*, prefix: str = "") -> None:
    """Close every breaker whose name starts with `prefix` (tests; an operator after a repair)."""
    for name, breaker in list(_named.items()):
        if name.startswith(prefix):
            breaker.reset()
