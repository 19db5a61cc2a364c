"""The served stack's page reads, a sync, grading and the leaderboard, next to `/healthz`.

    bench/run [--learners 3000] [--duration 4] [--connections 8] [--smoke]

Run through `bench/run`. Starts the stack as in production: gunicorn (2 sync workers, DEBUG
off) on PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/lp_perf_bench,
created if missing and migrated) and Redis (BENCH_REDIS_URL, default REDIS_URL or
redis://127.0.0.1:6379/0, keys under a prefix of the run's own), and one Celery worker on a
queue of the run's own. Seeds the curriculum (94 lessons), a few thousand learners with
realistic progress (completions over the last 30 days, their XP, stats), comments across the
quest and 10 threads of 3 replies on the measured lesson, and one signed-in learner (40
lessons done through the sync service). Then drives each read with wrk (8 connections, a few
seconds, after a warm-up) and prints one table: requests per second, p50 and p99 latency,
SQL queries per request (one request through the whole stack, in this process, warm), and
the ratio to `/healthz`: each read runs in rounds of `/healthz` then the read, back to back,
and its ratio is the median of the rounds' (a machine shared with other work speeds up and
slows down; both sides of a round see the same). The
sync (94 events, a fresh learner each request) is driven from Python threads; grading runs
bench_grading's rounds through the same worker, with the ratio to a no-op task.

`--smoke` runs everything at a tiny size and fails only if something breaks (an error
answer, a crash), never on a figure. Without wrk, the reads are driven from Python threads.
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import bench_grading  # noqa: E402
from bench.bench_progress import free_port, request, stop, wait_for_server  # noqa: E402
from bench.postgres import ensure_database  # noqa: E402
from bench.redis_keys import delete_keys  # noqa: E402
from bench.stack_data import EMAIL, LESSON, PASSWORD, seed, sync_body, sync_learners  # noqa: E402
from bench.stack_load import (  # noqa: E402
    Figure,
    median_figure,
    queries_per_request,
    run_threads,
    run_wrk,
    workers_cpu_seconds,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_perf_bench"
HEALTHZ = "/healthz"


# --- The stack ------------------------------------------------------------------------------


def stack_env(database_url: str, redis_url: str, queue: str) -> dict[str, str]:
    env = bench_grading.bench_env(
        database_url, redis_url, queue, settings_module="learning_platform.settings"
    )
    env.update(
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CACHE_KEY_PREFIX=f"bench-stack-{queue}",
    )
    # The bench database outlives a run: a key of its own per run would make the sessions an
    # earlier run left there fail their signature ("Session data corrupted" in the log).
    if "SECRET_KEY" not in os.environ:
        env["SECRET_KEY"] = "bench-stack-only-" + "0" * 40
    return env


def start_gunicorn(env: dict[str, str], port: int, workers: int) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "learning_platform.wsgi:application",
            "--workers", str(workers), "--worker-class", "sync",
            "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )  # fmt: skip


# --- The run --------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=3000)
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per wrk run")
    parser.add_argument("--read-rounds", type=int, default=3, help="rounds per read")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port (default: a free one)")
    parser.add_argument("--syncs", type=int, default=200, help="sync requests (fresh learners)")
    parser.add_argument("--tasks", type=int, default=300, help="grading tasks per round")
    parser.add_argument("--rounds", type=int, default=3, help="grading rounds")
    parser.add_argument(
        "--first-pass-share",
        type=float,
        default=bench_grading.FIRST_PASS_SHARE,
        help="share of each grading round that is first passes of new learners",
    )
    parser.add_argument(
        "--smoke", action="store_true", help="tiny sizes; fails only if something breaks"
    )
    args = parser.parse_args()
    if args.smoke:
        args.learners, args.duration, args.syncs, args.tasks, args.rounds = 30, 1.0, 8, 10, 1
        args.read_rounds = 1

    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    redis_url = os.environ.get(
        "BENCH_REDIS_URL", os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    )
    queue = f"bench-stack-{os.getpid()}"
    env = stack_env(database_url, redis_url, queue)
    os.environ.update({k: v for k, v in env.items() if k != "PYTHONPATH"})
    ensure_database(database_url)
    import django

    django.setup()
    from django.conf import settings

    from learning_platform.celery import app

    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    rng = random.Random(11)
    started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    data = seed(learners=args.learners, rng=rng)
    sync_tokens = sync_learners(args.syncs + 2)
    body = sync_body(data["lessons"])

    port = args.port or free_port()
    server = start_gunicorn(env, port, args.workers)
    worker = bench_grading.start_worker(env, queue)
    use_wrk = shutil.which("wrk") is not None
    try:
        wait_for_server(port, server)
        bench_grading.wait_for_worker(app, queue, worker)
        status, answer = request(
            port, "POST", "/_allauth/app/v1/auth/login",
            headers={"Content-Type": "application/json"},
            body=json.dumps({"email": EMAIL, "password": PASSWORD}),
        )  # fmt: skip
        if status != 200:
            raise RuntimeError(f"sign-in failed: {status} {answer[:300]!r}")
        token = {"X-Session-Token": json.loads(answer)["meta"]["session_token"]}
        quest = settings.DEMO_QUEST_SLUG
        reads = [
            ("lesson, signed out", f"/api/v1/lessons/{LESSON}/", {}, 0.6),
            ("lesson, signed in", f"/api/v1/lessons/{LESSON}/", token, 0.45),
            ("quest outline, signed in", f"/api/v1/quests/{quest}/", token, 0.45),
            ("comments (10 threads of 3)", f"/api/v1/lessons/{LESSON}/comments/", {}, 0.4),
            ("achievements, signed in", "/api/v1/achievements/", token, 0.4),
            ("/me/progress", "/api/v1/me/progress", token, 0.5),
            ("leaderboard", "/api/v1/leaderboard", {}, None),
        ]
        if "level-list" in {p.name for p in _url_names()}:
            reads.insert(6, ("levels", "/api/v1/levels/", {}, 0.6))
        for name, path, headers, _ in reads:
            status, answer = request(port, "GET", path, headers=headers)
            if status != 200:
                raise RuntimeError(f"{name}: {path} answered {status}: {answer[:300]!r}")

        def drive_get(path: str, headers: dict) -> Figure:
            cpu = workers_cpu_seconds(server.pid)
            if use_wrk:
                figure = run_wrk(
                    port, path, headers, seconds=args.duration, connections=args.connections
                )
            else:
                figure = run_threads(
                    port, "GET", path, lambda i: (headers, None),
                    seconds=args.duration, connections=args.connections,
                )  # fmt: skip
            done = figure.requests_per_second * args.duration
            figure.cpu_ms = (workers_cpu_seconds(server.pid) - cpu) / max(done, 1) * 1e3
            return figure

        for path, headers in [(HEALTHZ, {}), *((path, h) for _, path, h, _ in reads)]:
            drive_get(path, headers)  # warm-up: connections, caches, imports
        baselines: list[Figure] = []
        figures: list[Figure] = []
        for name, path, headers, target in reads:
            # Rounds of /healthz then the read, back to back: each round's ratio compares
            # the two under the same load from the rest of the machine.
            pairs = []
            for _ in range(args.read_rounds):
                pairs.append((drive_get(HEALTHZ, {}), drive_get(path, headers)))
            baselines += [bare for bare, _ in pairs]
            figure = median_figure(name, [read for _, read in pairs])
            figure.ratio = statistics.median(
                read.requests_per_second / bare.requests_per_second for bare, read in pairs
            )
            figure.cpu_ratio = statistics.median(
                bare.cpu_ms / read.cpu_ms for bare, read in pairs if read.cpu_ms
            )
            figure.target = target
            figure.queries = queries_per_request(path, headers)
            figures.append(figure)

        sync = run_threads(
            port, "POST", "/api/v1/me/progress/sync",
            lambda i: ({"X-Session-Token": sync_tokens[i], "Content-Type": "application/json"},
                       body),
            seconds=None, connections=args.connections, total=args.syncs,
        )  # fmt: skip
        sync.name = f"sync of {len(data['lessons'])} events (new learner each)"
        sync.queries = queries_per_request(
            "/api/v1/me/progress/sync",
            {"X-Session-Token": sync_tokens[-1]},
            method="POST",
            body=body,
        )
        figures.append(sync)
        grading_args = argparse.Namespace(
            tasks=args.tasks, rounds=args.rounds, first_pass_share=args.first_pass_share
        )
        grading = bench_grading.measure(
            grading_args, label="stack", env=env, queue=queue, worker=worker
        )
    finally:
        stop(server)
        stop(worker)
        import redis

        redis.Redis.from_url(redis_url).delete(queue)
        delete_keys(redis_url, f"{env['CACHE_KEY_PREFIX']}:*")

    healthz = median_figure("/healthz (bare JsonResponse, same middleware)", baselines)
    healthz.queries, healthz.ratio, healthz.cpu_ratio = 0, 1.0, 1.0
    for figure in figures:
        if figure.ratio is None:
            figure.ratio = figure.requests_per_second / healthz.requests_per_second
    print(
        f"bench/run {started}: {os.cpu_count()} CPUs, gunicorn {args.workers} sync workers, "
        f"{'wrk' if use_wrk else 'Python threads'} {args.connections} connections x "
        f"{args.duration:g} s per run, {args.read_rounds} rounds of /healthz then the read "
        f"(ratio: median of the rounds'), {data['learners']} learners, "
        f"{len(data['lessons'])} lessons; /healthz {len(baselines)} runs from "
        f"{min(b.requests_per_second for b in baselines):.0f} to "
        f"{max(b.requests_per_second for b in baselines):.0f} req/s"
    )
    header = (
        f"| {'read':<44} | {'req/s':>7} | {'p50 ms':>7} | {'p99 ms':>7} | {'queries':>7} | "
        f"{'ratio':>5} | {'target':>7} | {'CPU ms':>6} | {'CPU ratio':>9} |"
    )
    print(header)
    print("|" + "|".join("-" * len(cell) for cell in header.split("|")[1:-1]) + "|")
    failures = healthz.bad
    for figure in [healthz, *figures]:
        target = f">= {figure.target}" if figure.target else ""
        cpu = f"{figure.cpu_ms:6.2f}" if figure.cpu_ms is not None else f"{'':>6}"
        cpu_ratio = f"{figure.cpu_ratio:9.2f}" if figure.cpu_ratio is not None else f"{'':>9}"
        print(
            f"| {figure.name:<44} | {figure.requests_per_second:7.0f} | {figure.p50_ms:7.1f} | "
            f"{figure.p99_ms:7.1f} | {figure.queries!s:>7} | {figure.ratio:5.2f} | {target:>7} | "
            f"{cpu} | {cpu_ratio} |"
        )
        failures += figure.bad if figure is not healthz else 0
    print(
        f"| {'grading, end to end (tasks/s; ratio to no-op)':<44} | "
        f"{grading['grading_per_second']:7.0f} | {grading['wait_ms_p50']:7.0f} | "
        f"{grading['wait_ms_p99']:7.0f} | "
        f"{grading['queries_per_first_pass']!s:>3}/{grading['queries_per_later_pass']!s:<3} | "
        f"{grading['ratio']:5.2f} | {'>= 0.5':>7} | {'':>6} | {'':>9} |"
    )
    print(
        f"| {'no-op task through the same worker':<44} | {grading['noop_per_second']:7.0f} | "
        f"{'':>7} | {'':>7} | {0:>7} | {1:5.2f} | {'':>7} | {'':>6} | {'':>9} |"
    )
    print(
        "grading p50/p99: from stored to graded, in bursts of "
        f"{args.tasks} submissions ({args.first_pass_share:.0%} first passes of new learners, "
        "the rest later passes; queueing included); queries: a first pass / a later pass; "
        "other queries: one warm request through the whole stack; CPU ms: the gunicorn "
        "workers' CPU time per request, CPU ratio: /healthz's over the read's (median of the "
        "rounds), what the rate ratio tends to on a machine with nothing else running"
    )
    if failures:
        print(f"FAILED: {failures} answers were errors")
        return 1
    return 0


def _url_names():
    from django.urls import get_resolver

    def walk(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                yield from walk(pattern.url_patterns)
            else:
                yield pattern

    return walk(get_resolver().url_patterns)


if __name__ == "__main__":
    sys.exit(main())
