#!/usr/bin/env python
"""The leaderboard's time per request through the in-process test client, under the settings
given on the command line: how a figure of bench/scale compares with a naive measurement.

    bench/scale --learners 2000 --keep --database-prefix lp_scale_bench     # a database to read
    .venv/bin/python bench/leaderboard_timing.py --database-url postgres://postgres@127.0.0.1:5432/lp_scale_bench_2000 \\
        --redis-url redis://127.0.0.1:6379/7 --variant bench
    ... --variant naive      # DEBUG=1, no warm-up, boards as a fresh Redis has them (not built)

Variants (each in this process, one per run):
- `bench`: what bench/scale does: DEBUG off, TESTING off, Redis cache, the Redis boards built
  before timing, 3 warm-up requests.
- `debug`: the same with DEBUG=1 (connection.queries is recorded, the browsable renderer is on).
- `unbuilt`: the boards' keys under a fresh prefix, never built: every read falls back to SQL
  (and tries to queue a rebuild, once per 10 minutes).
- `sql`: LEADERBOARD_REDIS=false: the SQL over the XP-per-period rollup.
- `no-redis`: no REDIS_URL at all (the embedded default's local-memory cache, SQL boards).
- `testing`: TESTING=1, as under pytest: the boards and the summary cache off.
- `naive`: DEBUG=1 and `unbuilt`, no warm-up.

Prints the p50 and p99 in ms of --requests reads of each period, signed out and signed in.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.postgres import in_process_environment  # noqa: E402
from bench.redis_keys import delete_keys  # noqa: E402

VARIANTS = ("bench", "debug", "unbuilt", "sql", "no-redis", "testing", "naive")


def environment(variant: str, *, database_url: str, redis_url: str, prefix: str) -> dict:
    env = in_process_environment(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        CACHE_KEY_PREFIX=prefix,
        CELERY_TASK_DEFAULT_QUEUE=prefix,
        LEADERBOARD_REDIS="true",
    )
    if variant in ("debug", "naive"):
        env["DEBUG"] = "1"
    if variant == "sql":
        env["LEADERBOARD_REDIS"] = "false"
    if variant == "no-redis":
        env.pop("REDIS_URL")
        env.pop("LEADERBOARD_REDIS")
    if variant == "testing":
        env["TESTING"] = "1"
        env.pop("LEADERBOARD_REDIS")
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--variant", choices=VARIANTS, default="bench")
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    prefix = f"bench-lb-{uuid.uuid4().hex[:6]}"
    for name in ("ENV_FILE", "LEADERBOARD_REDIS", "REDIS_URL", "CACHE_URL", "TESTING"):
        os.environ.pop(name, None)
    os.environ.update(
        environment(
            args.variant, database_url=args.database_url, redis_url=args.redis_url, prefix=prefix
        )
    )
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    from accounts.models import User
    from progress import boards

    if boards.enabled() and args.variant not in ("unbuilt", "naive"):
        boards.rebuild()
    viewer = User.objects.filter(show_on_leaderboard=True, is_active=True).order_by("pk")[100]
    signed_out, signed_in = Client(), Client()
    signed_in.force_login(viewer)
    warm_up = 0 if args.variant == "naive" else 3
    print(
        f"variant {args.variant}: DEBUG={settings.DEBUG} TESTING={settings.TESTING} "
        f"cache={settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]} "
        f"redis boards={boards.enabled()} warm-up={warm_up} requests={args.requests}"
    )
    try:
        for period in ("week", "month", "all"):
            url = f"/api/v1/leaderboard?period={period}"
            for label, client in (("signed out", signed_out), ("signed in", signed_in)):
                for _ in range(warm_up):
                    client.get(url)
                times = []
                for _ in range(args.requests):
                    started = time.perf_counter()
                    response = client.get(url)
                    times.append((time.perf_counter() - started) * 1000)
                    assert response.status_code == 200, response.content
                first, times = times[0], sorted(times)
                p99 = times[max(0, round(0.99 * len(times)) - 1)]
                print(
                    f"  {period:5} {label:10}  p50 {statistics.median(times):6.2f} ms"
                    f"  p99 {p99:6.2f} ms  first {first:.2f} ms"
                )
    finally:
        delete_keys(args.redis_url, f"{prefix}*")
    return 0


if __name__ == "__main__":
    sys.exit(main())
