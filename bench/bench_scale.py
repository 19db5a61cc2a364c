#!/usr/bin/env python
"""What requests cost as learners grow: the same requests at 100 and at 100,000 learners.

    bench/scale                                  # 100 and 100,000 learners, one table
    bench/scale --learners 200 --requests 20     # a smoke run (CI)

For each size, in its own process and its own PostgreSQL database (`lp_scale_bench_<n>`,
dropped at the end unless --keep): migrates, loads `content/`, then seeds in bulk SQL
(INSERT ... SELECT over generate_series, no API): n learners (5% opted out of the
leaderboard), 30 lesson awards each spread over 60 days (3,000,000 at 100,000), their stats,
n/2 completions with activity days and streaks, n/5 comments (a fifth on the busiest lesson),
n/20 submissions, the unlocks of the seeded XP and streak achievements they qualify for, and
the weekly leagues (bench/scale_leagues.py: tiers, this week's cohorts, league XP from the
ledger); then VACUUM ANALYZE and a rebuild of the Redis leaderboards (db 7 by default, keys
under a prefix of their own, deleted at the end).

Then it times, through the Django test client (in-process, DEBUG off, the project's middleware,
PROGRESS_SUMMARY_CACHE off so /me/progress costs its queries): the leaderboard of each period
signed out and signed in (p50, p99 over --requests), the viewer's rank alone (one Redis round
trip), the leaderboard answered from SQL (the rollup fallback, fewer requests), /me/progress,
/achievements/, a lesson, the comments of the busiest lesson, the admin lists of learners, XP
awards and submissions (--admin-requests), the league's figures (GET /me/league, one award
with the league's hook on and off, the close of every cohort of the week), and the retroactive
award of a new achievement that every learner qualifies for, by the task's batches run one
after the other (one worker; --no-retroactive skips it). It EXPLAINs every query of the
learner-facing requests and lists sequential scans of the tables that grow with learners.
Prints one table with every size, and which targets hold.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import scale_leagues  # noqa: E402
from bench.postgres import drop_database, in_process_environment, recreate_database  # noqa: E402
from bench.redis_keys import delete_keys  # noqa: E402
from bench.scale_workload import Bench  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", default="100,100000", help="sizes, comma-separated")
    parser.add_argument("--requests", type=int, default=200, help="timed requests per read")
    parser.add_argument("--admin-requests", type=int, default=20)
    parser.add_argument("--fallback-requests", type=int, default=10)
    parser.add_argument("--database-host", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database-prefix", default="lp_scale_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    parser.add_argument(
        "--no-retroactive", action="store_true", help="skip the retroactive award (long at 1M)"
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


# --- the parent: one child process per size, one table ------------------------------------


def main() -> int:
    args = parse_args()
    if args.one:
        run_one(args)
        return 0
    sizes = [int(n) for n in args.learners.split(",")]
    results: dict[int, dict] = {}
    for n in sizes:
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            command = [sys.executable, __file__, *sys.argv[1:], "--one", str(n), "--json", out.name]
            started = time.monotonic()
            subprocess.run(command, check=True, cwd=ROOT)
            results[n] = json.loads(Path(out.name).read_text())
            print(f"[{n} learners: {time.monotonic() - started:.0f} s in all]", flush=True)
    print_table(results)
    return 0 if all(r["errors"] == [] for r in results.values()) else 1


def print_table(results: dict[int, dict]) -> None:
    sizes = sorted(results)
    names = list(results[sizes[0]]["rows"])
    header = "| request | " + " | ".join(f"{n:,}: p50 / p99 (CPU) ms" for n in sizes) + " |"
    if len(sizes) > 1:
        header += f" p50 ratio {sizes[-1]:,} / {sizes[0]:,} |"
    print()
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for name in names:
        cells = []
        for n in sizes:
            row = results[n]["rows"].get(name)
            cpu = f" ({row['cpu']:.1f})" if row and "cpu" in row else ""
            cells.append(f"{row['p50']:.1f} / {row['p99']:.1f}{cpu}" if row else "-")
        line = f"| {name} | " + " | ".join(cells) + " |"
        if len(sizes) > 1:
            small, big = results[sizes[0]]["rows"].get(name), results[sizes[-1]]["rows"].get(name)
            line += f" {big['p50'] / small['p50']:.2f} |" if small and big else " - |"
        print(line)
    for n in sizes:
        facts = results[n]["facts"]
        print(f"\n{n:,} learners: " + ", ".join(f"{k} {v}" for k, v in facts.items()))
        scans = results[n]["seq_scans"]
        print(
            "  sequential scans of tables that grow with learners, in learner-facing requests: "
            + ("none" if not scans else "; ".join(scans))
        )
    print_targets(results)


def print_targets(results: dict[int, dict]) -> None:
    sizes = sorted(results)
    small, big = results[sizes[0]], results[sizes[-1]]
    checks = []
    for name, row in big["rows"].items():
        if name.startswith("leaderboard ") and "SQL" not in name:
            checks.append((f"{name}: p99 <= 20 ms", row["p99"] <= 20, f"{row['p99']:.1f}"))
        elif name.startswith("viewer's rank"):
            checks.append((f"{name}: p99 <= 10 ms", row["p99"] <= 10, f"{row['p99']:.1f}"))
        elif name.startswith("admin "):
            checks.append((f"{name}: p50 <= 300 ms", row["p50"] <= 300, f"{row['p50']:.1f}"))
        elif row.get("learner_facing") and len(sizes) > 1 and name in small["rows"]:
            before = small["rows"][name]
            ratio, cpu_ratio = row["p50"] / before["p50"], row["cpu"] / before["cpu"]
            checks.append(
                (
                    f"{name}: p50 within 2x of {sizes[0]}",
                    ratio <= 2,
                    f"{ratio:.2f}x; client CPU {cpu_ratio:.2f}x",
                )
            )
    checks += scale_leagues.targets(big)
    retro = big["facts"].get("retroactive award (s)")
    if retro is not None:
        checks.append(("retroactive award, one worker: <= 300 s", retro <= 300, f"{retro} s"))
    print(f"\nTargets at {sizes[-1]:,} learners:")
    for label, met, value in checks:
        print(f"  {'met    ' if met else 'NOT MET'}  {label} ({value})")
    for n in sizes:
        for error in results[n]["errors"]:
            print(f"  ERROR at {n}: {error}")


# --- one size, in its own process ---------------------------------------------------------


def run_one(args: argparse.Namespace) -> None:
    n = args.one
    database = f"{args.database_prefix}_{n}"
    prefix = f"bench-scale-{n}-{uuid.uuid4().hex[:6]}"
    os.environ.update(
        in_process_environment(
            DATABASE_URL=f"{args.database_host}/{database}",
            REDIS_URL=args.redis_url,
            CACHE_KEY_PREFIX=prefix,
            CELERY_TASK_DEFAULT_QUEUE=prefix,
            PROGRESS_SUMMARY_CACHE="false",
            LEADERBOARD_REDIS="true",
        )
    )
    os.environ.pop("ENV_FILE", None)
    recreate_database(f"{args.database_host}/{database}")
    import django

    django.setup()
    from django.conf import settings

    # DEBUG off without collectstatic: the admin's pages name their static files unhashed.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    result = {"rows": {}, "facts": {}, "seq_scans": [], "errors": []}
    try:
        Bench(n=n, args=args, result=result).run()
    finally:
        delete_keys(args.redis_url, f"{prefix}*")
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database(f"{args.database_host}/{database}")
    Path(args.json).write_text(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
