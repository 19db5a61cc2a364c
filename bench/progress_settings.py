"""Settings for bench/bench_progress.py only: the project's, plus a bare view's URL."""

import os

from learning_platform.settings import *  # noqa: F403

ROOT_URLCONF = "bench.progress_urls"

# What-if knobs, off by default so the benchmark measures the real configuration.
if os.environ.get("BENCH_TRACK_ACTIVITY") == "0":
    USERSESSIONS_TRACK_ACTIVITY = False
if os.environ.get("BENCH_SESSION_ENGINE"):
    SESSION_ENGINE = os.environ["BENCH_SESSION_ENGINE"]
