"""Test-only: Django's development server on a clock the browser tests set (never used by the
product, which has no time travel).

    E2E_CLOCK_FILE=/path/clock python e2e/clock_server.py 127.0.0.1:PORT

Before each request it reads an ISO 8601 instant from E2E_CLOCK_FILE (written by the spec) and
moves the whole process's clock there with time-machine, so "today", streaks, goals and
sessions are those of the fake day. One thread (--nothreading): one clock at a time. Without
REDIS_URL in its environment Celery tasks run in-process, on the same fake clock.
"""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import time_machine
from django.core.management import execute_from_command_line
from django.core.signals import request_started

REPO = Path(__file__).resolve().parents[2]
CLOCK_FILE = Path(os.environ["E2E_CLOCK_FILE"])

_travel: list[Any] = []


def set_clock(**_: object) -> None:
    """Stops the previous trip and travels to the file's instant (ticking from there)."""
    instant = datetime.fromisoformat(CLOCK_FILE.read_text().strip())
    if instant.tzinfo is None:
        raise ValueError(f"{CLOCK_FILE}: an instant with its offset, e.g. 2026-03-02T10:00:00Z")
    while _travel:
        _travel.pop().stop()
    trip = time_machine.travel(instant, tick=True)
    trip.start()
    _travel.append(trip)


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    os.chdir(REPO)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "learning_platform.settings")
    request_started.connect(set_clock, dispatch_uid="e2e-clock")
    execute_from_command_line(
        ["manage.py", "runserver", "--noreload", "--nothreading", sys.argv[1]]
    )
