"""Who and why for the content's history (django-simple-history).

Admin saves name their editor through simple-history's request middleware. Writes outside a
request (the curriculum loader, the scheduled publisher) name themselves instead: inside
`recorded_as(reason)`, every historical record created without a reason gets that one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from simple_history.signals import pre_create_historical_record

_reason: ContextVar[str | None] = ContextVar("history_reason", default=None)


@contextlib.contextmanager
def recorded_as(reason: str) -> Iterator[None]:
    """Label the history records written inside the block with `reason`."""
    token = _reason.set(reason)
    try:
        yield
    finally:
        _reason.reset(token)


def _label(*, history_instance: Any, **kwargs: object) -> None:
    reason = _reason.get()
    if reason and not history_instance.history_change_reason:
        history_instance.history_change_reason = reason


def connect() -> None:
    pre_create_historical_record.connect(_label, weak=False, dispatch_uid="history-reason")
