#!/usr/bin/env python
"""The hot paths that keep SQL text, timed with it and with the ORM's version, in one process.

    flock /tmp/lp-bench.lock .venv/bin/python bench/bench_sql.py [--requests 300] [--batches 5]

PostgreSQL at BENCH_DATABASE_URL (default .../lp_bench_sql, created, migrated and seeded with
bench/stack.py's seed at `--learners`), Redis at BENCH_REDIS_URL (default REDIS_URL), keys
under a prefix of the run's own. Each read goes through Django's WSGI handler as
bench/profile_reads.py does, first as the product runs it, then with the ORM's version of its
SQL put in its place (`bench/orm_alternatives.py`; the answers are asserted equal first):
`/me/progress` with its cache off (what every progress write's next header costs, and every
sync's answer). Then the stats rows' write of the XP ledger,
for 1 and for 500 learners, as `learning_platform.db.update_rows` and as `bulk_update`. Figures
are milliseconds of wall time per request or call, the median of `--batches`; a read's ratio
is to `/healthz` in the same run, as bench/run's are.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.postgres import ensure_database, in_process_environment  # noqa: E402
from bench.profile_reads import wsgi_get  # noqa: E402
from bench.redis_keys import delete_keys  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_bench_sql"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="per batch")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--learners", type=int, default=200)
    args = parser.parse_args()

    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    redis_url = os.environ.get(
        "BENCH_REDIS_URL", os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    )
    prefix = f"bench-sql-{uuid.uuid4().hex[:8]}"
    os.environ.update(
        in_process_environment(
            DATABASE_URL=database_url,
            REDIS_URL=redis_url,
            CACHE_KEY_PREFIX=prefix,
            ALLOWED_HOSTS="127.0.0.1",
        )
    )
    os.environ.pop("ENV_FILE", None)
    ensure_database(database_url)
    import django

    django.setup()
    from accounts.models import User
    from bench import stack_data

    stack_data.seed(learners=args.learners, rng=random.Random(11))
    learner = User.objects.get(email=stack_data.EMAIL)
    token = stack_data.session_token_for(learner)
    try:
        _reads(learner, {"HTTP_X_SESSION_TOKEN": token}, args.requests, args.batches)
        _stats_writes(args.requests, args.batches)
    finally:
        delete_keys(redis_url, f"{prefix}:*")
    return 0


def _reads(learner: Any, signed_in: dict[str, str], requests: int, batches: int) -> None:
    from django.core.handlers.wsgi import WSGIHandler
    from django.test.utils import override_settings

    from achievements import selectors as achievements
    from bench import orm_alternatives as orm
    from progress.selectors import summary

    handler = WSGIHandler()

    def call(path: str, headers: dict[str, str]) -> None:
        status = wsgi_get(handler, path, headers)
        if status != 200:
            raise RuntimeError(f"{path} answered {status}")

    # Each read: its path, and the product's functions with the ORM's version of each.
    reads: dict[str, tuple[str, list[tuple[Any, str, Callable[..., Any]]]]] = {
        "/me/progress, uncached": ("/api/v1/me/progress", []),
        "  stats, lessons by ORM": (
            "/api/v1/me/progress",
            [(summary, "_summary_rows", orm.summary_rows)],
        ),
        "  achievements by ORM": (
            "/api/v1/me/progress",
            [(achievements, "unlocked_and_total", orm.unlocked_and_total)],
        ),
    }
    for _, swaps in reads.values():
        for module, name, alternative in swaps:
            _assert_same(getattr(module, name), alternative, learner)

    def timed(path: str) -> float:
        for _ in range(50):
            call(path, signed_in)
        return statistics.median(
            _batch(lambda: call(path, signed_in), requests) for _ in range(batches)
        )

    with override_settings(PROGRESS_SUMMARY_CACHE=False):
        healthz = timed("/healthz")
        print(f"/healthz {healthz:.3f} ms; median of {batches} x {requests} requests")
        print(f"{'read':<26} {'ms':>8} {'ratio':>6}")
        for name, (path, swaps) in reads.items():
            with ExitStack() as stack:
                for module, attribute, alternative in swaps:
                    stack.enter_context(mock.patch.object(module, attribute, alternative))
                figure = timed(path)
            print(f"{name:<26} {figure:8.3f} {healthz / figure:6.2f}")


def _assert_same(
    product: Callable[..., Any], alternative: Callable[..., Any], learner: Any
) -> None:
    from django.conf import settings

    arguments: dict[str, Any] = {"user_id": learner.pk}
    if product.__name__ == "_summary_rows":
        arguments["quest_slug"] = settings.DEMO_QUEST_SLUG
    assert product(**arguments) == alternative(**arguments), product.__name__


def _stats_writes(requests: int, batches: int) -> None:
    from django.db import transaction

    from learning_platform.clock import now
    from learning_platform.db import update_rows
    from progress.models import LearnerStats

    written = ("xp_total", "streak_current", "sync_seq", "updated_at")
    print(f"{'stats rows written':<26} {'update_rows':>11} {'bulk_update':>12}")
    for count in (1, 500):
        rows = list(LearnerStats.objects.order_by("user_id")[:count])
        if len(rows) < count:
            continue

        def with_sql(rows: list[Any] = rows) -> None:
            update_rows(
                LearnerStats,
                keys=["user"],
                fields=written,
                rows=[
                    (r.user_id, r.xp_total + 1, r.streak_current, r.sync_seq, now()) for r in rows
                ],
            )

        def with_orm(rows: list[Any] = rows) -> None:
            for r in rows:
                r.xp_total += 1
                r.updated_at = now()
            LearnerStats.objects.bulk_update(rows, written)

        calls = max(requests // count, 3)
        figures = []
        for write in (with_sql, with_orm):
            times = []
            for _ in range(batches):
                with transaction.atomic():
                    times.append(_batch(write, calls))
                    transaction.set_rollback(True)
            figures.append(statistics.median(times))
        print(f"{f'{count} learner(s)':<26} {figures[0]:11.3f} {figures[1]:12.3f}")


def _batch(call: Callable[[], Any], calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - started) / calls * 1e3


if __name__ == "__main__":
    sys.exit(main())
