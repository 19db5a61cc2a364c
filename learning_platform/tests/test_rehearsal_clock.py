"""bench/cluster_clock.py and its wall-clock shim: how the multi-node rehearsal puts web node
B past a learner's midnight (the rehearsal itself runs in CI, .ci/run)."""

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from bench.cluster_clock import LEAD, PAST_MIDNIGHT, WALL_CLOCK_SHIM, node_b_env, plan

# Every quarter hour of a day: each a moment the rehearsal may start at.
STARTS = [datetime(2026, 12, 5, tzinfo=UTC) + timedelta(minutes=m) for m in range(0, 1440, 15)]


@pytest.mark.parametrize("now", STARTS, ids=lambda t: t.strftime("%H:%M"))
def test_node_b_is_past_the_zones_midnight_that_the_database_has_not_reached(now):
    chosen = plan(now)
    zone = ZoneInfo(chosen.zone)

    database_day = now.astimezone(zone).date()
    node_b_day = (now + timedelta(seconds=chosen.ahead)).astimezone(zone).date()
    assert node_b_day == database_day + timedelta(days=1)
    assert (chosen.midnight - now).total_seconds() >= LEAD


@pytest.mark.parametrize("now", STARTS, ids=lambda t: t.strftime("%H:%M"))
def test_node_b_is_minutes_ahead_not_hours(now):
    assert plan(now).ahead <= LEAD + 60 * 60 + PAST_MIDNIGHT


def test_the_shim_moves_the_wall_clock_only_and_loads_no_pytest():
    probe = (
        "import json, sys, time, datetime\n"
        "m = time.monotonic(); time.sleep(0.05); slept = time.monotonic() - m\n"
        "print(json.dumps({'wall': time.time(), 'now': datetime.datetime.now(datetime.UTC)"
        ".timestamp(), 'slept': slept, 'pytest': 'pytest' in sys.modules}))\n"
    )
    env = {**os.environ, **node_b_env(plan(datetime.now(UTC)))}
    env["LP_WALL_CLOCK_AHEAD"] = "600"

    # The child runs on this machine's real clock (TEST_CLOCK moves only this process's).
    hatch = time_machine.escape_hatch
    real = hatch.time.time() if hatch.is_travelling() else datetime.now(UTC).timestamp()
    shown = json.loads(
        subprocess.run(
            [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
        ).stdout
    )

    assert 595 < shown["wall"] - real < 630
    assert 595 < shown["now"] - real < 630
    assert 0.05 <= shown["slept"] < 1
    assert shown["pytest"] is False  # else the settings would take the node for a test run


def test_node_b_finds_the_shim_first_on_its_path():
    env = node_b_env(plan(datetime(2026, 12, 5, tzinfo=UTC)), python_path="/opt/other")

    assert env["PYTHONPATH"] == f"{WALL_CLOCK_SHIM}:/opt/other"
    assert (WALL_CLOCK_SHIM / "sitecustomize.py").is_file()
