"""Moves this Python's wall clock LP_WALL_CLOCK_AHEAD seconds ahead, from its start: a node
whose clock drifted, for the multi-node rehearsal (bench/cluster.py, bench/cluster_clock.py).

Preloaded by putting this directory first on PYTHONPATH (Python imports `sitecustomize` at
start-up). Only the wall clock moves (time.time, datetime.now, CLOCK_REALTIME: time-machine's
patches, kept across gunicorn's forks); time.monotonic, perf_counter and sleep are untouched,
as on a real machine whose clock is off. Debian's libfaketime is not used: under it Python
3.11's time.sleep never returns.
"""

import os

_ahead = os.environ.get("LP_WALL_CLOCK_AHEAD")
if _ahead:
    import sys
    from datetime import UTC, datetime, timedelta

    # time-machine imports pytest when it can, and the settings take a process that has pytest
    # loaded for a test run (TESTING: tasks in-process, no broker): keep it out.
    sys.modules["pytest"] = None  # type: ignore[assignment]
    try:
        import time_machine
    finally:
        del sys.modules["pytest"]

    time_machine.travel(datetime.now(UTC) + timedelta(seconds=float(_ahead)), tick=True).start()
