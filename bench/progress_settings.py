"""Settings for bench/bench_progress.py only: the project's, plus a bare view's URL."""

from learning_platform.settings import *  # noqa: F403

ROOT_URLCONF = "bench.progress_urls"
