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
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import bench_grading  # noqa: E402
from bench.bench_progress import free_port, request, stop, wait_for_server  # noqa: E402
from bench.postgres import ensure_database  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_perf_bench"
EMAIL = "bench-stack@example.com"
PASSWORD = "bench-stack-Passw0rd!"
LESSON = "embedding-dimension"
HEALTHZ = "/healthz"
WRK_SCRIPT = ROOT / "bench" / "wrk_report.lua"


@dataclass
class Figure:
    name: str
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    bad: int
    queries: int | str = "-"
    target: float | None = None
    ratio: float | None = None
    cpu_ms: float | None = None  # CPU of the gunicorn workers per request
    cpu_ratio: float | None = None


def median_figure(name: str, runs: list[Figure]) -> Figure:
    figure = Figure(
        name,
        statistics.median(run.requests_per_second for run in runs),
        statistics.median(run.p50_ms for run in runs),
        statistics.median(run.p99_ms for run in runs),
        sum(run.bad for run in runs),
    )
    cpu = [run.cpu_ms for run in runs if run.cpu_ms is not None]
    figure.cpu_ms = statistics.median(cpu) if cpu else None
    return figure


def workers_cpu_seconds(master_pid: int) -> float:
    """CPU time used so far by gunicorn's worker processes (the master's children)."""
    return sum(
        seconds
        for role, seconds in bench_grading.cpu_seconds_by_process(master_pid).values()
        if role == "worker pool"
    )


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


# --- Data -----------------------------------------------------------------------------------


def seed(*, learners: int, rng: random.Random) -> dict:
    """The curriculum, `learners` learners with progress and comments, the signed-in learner."""
    from django.conf import settings
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from community.models import Comment
    from learning_platform.markdown import render_markdown
    from lessons.models import Lesson
    from progress import services
    from progress.models import LearnerStats, LessonCompletion, XPAward

    call_command("migrate", verbosity=0)
    call_command("load_curriculum", str(ROOT / "content"), verbosity=0)
    quest = settings.DEMO_QUEST_SLUG
    lessons = list(Lesson.objects.published().filter(quest__slug=quest).order_by("position"))
    lesson = next(item for item in lessons if item.slug == LESSON)

    already = User.objects.filter(email__startswith="bench-stack-learner-").count()
    now = timezone.now()
    if already < learners:
        password = make_password(None)
        made = User.objects.bulk_create(
            User(email=f"bench-stack-learner-{n}@example.com", password=password)
            for n in range(already, learners)
        )
        completions, awards, stats = [], [], []
        for user in made:
            # Most learners are early in the quest; a few went far.
            done = min(len(lessons), int(rng.expovariate(1 / 18)))
            xp = 0
            for position, item in enumerate(lessons[:done]):
                at = now - timedelta(days=30) + timedelta(days=30 * position / max(done, 1))
                completions.append(
                    LessonCompletion(user=user, lesson=item, completed_at=at, device_id="web")
                )
                awards.append(
                    XPAward(
                        user=user, source_type="lesson", source_id=item.id, amount=item.xp,
                        awarded_at=at,
                    )
                )  # fmt: skip
                xp += item.xp
            stats.append(LearnerStats(user=user, xp_total=xp, streak_current=done % 5))
        LessonCompletion.objects.bulk_create(completions, batch_size=5000)
        XPAward.objects.bulk_create(awards, batch_size=5000)
        LearnerStats.objects.bulk_create(stats, batch_size=5000)
        bodies = [
            "Why is `d_model` a multiple of the head count?",
            "Great explanation, **thanks**!",
            "See [the paper](https://arxiv.org/abs/1706.03762) for the details.",
            "I think the table has a typo in the second row.",
        ]
        comments = [
            Comment(lesson=rng.choice(lessons), author=rng.choice(made), body=body,
                    body_html=render_markdown(body, profile="comment"))
            for body in (rng.choice(bodies) for _ in range(max(learners // 2, 10)))
        ]  # fmt: skip
        Comment.objects.bulk_create(comments, batch_size=5000)

    # The measured lesson's discussion: 10 threads of 3 replies, as in the issue.
    Comment.objects.filter(lesson=lesson).delete()
    authors = list(User.objects.filter(email__startswith="bench-stack-learner-")[:40])
    for thread in range(10):
        body = f"Thread {thread}: how does *this* scale?"
        top = Comment.objects.create(
            lesson=lesson, author=authors[thread % len(authors)], body=body,
            body_html=render_markdown(body, profile="comment"),
        )  # fmt: skip
        for reply in range(3):
            body = f"Reply {reply}: linearly, see `n_embd`."
            Comment.objects.create(
                lesson=lesson, author=authors[(thread + reply + 1) % len(authors)], parent=top,
                reply_to=top, body=body, body_html=render_markdown(body, profile="comment"),
            )  # fmt: skip

    learner = User.objects.filter(email=EMAIL).first()
    if learner is None:
        learner = User.objects.create_user(EMAIL, PASSWORD, display_name="Bench Learner")
        events = [
            {
                "id": str(uuid.uuid4()),
                "type": "lesson_completed",
                "lesson": item.slug,
                "occurred_at": (now - timedelta(days=7 - i * 8 // 40)).isoformat(),
            }
            for i, item in enumerate(lessons[:40])
        ]
        services.sync_progress(user=learner, device_id="bench-phone", events=events)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return {"lessons": [item.slug for item in lessons], "learners": learners}


def session_token_for(user) -> str:
    """An app session for `user`, made as allauth makes one at sign-in (without paying for a
    password hash per learner)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.cached_db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "accounts.backends.AuthenticationBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def sync_learners(count: int) -> list[str]:
    """Tokens of `count` new learners, each about to sync for the first time."""
    from accounts.models import User

    run = uuid.uuid4().hex[:8]
    users = User.objects.bulk_create(
        User(email=f"bench-stack-sync-{run}-{n}@example.com") for n in range(count)
    )
    return [session_token_for(user) for user in users]


def sync_body(lessons: list[str]) -> bytes:
    now = time.time()
    events = [
        {
            "id": str(uuid.uuid4()),
            "type": "lesson_completed",
            "lesson": slug,
            "occurred_at": time.strftime(
                "%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 86400 * 10 + index * 3600)
            ),
        }
        for index, slug in enumerate(lessons)
    ]
    return json.dumps({"device_id": "bench-laptop", "events": events}).encode()


# --- Load -----------------------------------------------------------------------------------


def run_wrk(port: int, path: str, headers: dict, *, seconds: float, connections: int) -> Figure:
    duration = max(1, round(seconds))
    command = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "-s", str(WRK_SCRIPT)]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run(
        [*command, f"http://127.0.0.1:{port}{path}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=duration + 60,
    ).stdout
    match = re.search(
        r"WRK requests=(\d+) duration_us=(\d+) bad=(\d+) socket_errors=(\d+) "
        r"p50_us=(\d+) p99_us=(\d+)",
        output,
    )
    if match is None:
        raise RuntimeError(f"wrk printed no report for {path}:\n{output}")
    done, duration, bad, socket_errors, p50, p99 = map(int, match.groups())
    # gunicorn's sync workers close every connection: wrk counts the close as a read error
    # on some platforms, so only answers that were not 2xx/3xx count as failures.
    del socket_errors
    return Figure(path, done / (duration / 1e6), p50 / 1e3, p99 / 1e3, bad)


def run_threads(
    port: int,
    method: str,
    path: str,
    make_request,
    *,
    seconds: float | None,
    connections: int,
    total: int | None = None,
) -> Figure:
    """Drive `path` from `connections` threads for `seconds` (or `total` requests);
    `make_request(i)` answers (headers, body) of the i-th request."""
    latencies: list[float] = []
    bad = [0]
    counter = iter(range(10**9))
    lock = threading.Lock()
    deadline = [0.0]

    def worker() -> None:
        while True:
            with lock:
                index = next(counter)
            if total is not None and index >= total:
                return
            if total is None and time.perf_counter() > deadline[0]:
                return
            headers, body = make_request(index)
            started = time.perf_counter()
            try:
                status, _ = request(port, method, path, headers=headers, body=body)
            except OSError:
                status = 0
            elapsed = time.perf_counter() - started
            with lock:
                latencies.append(elapsed)
                if not 200 <= status < 400:
                    bad[0] += 1

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    began = time.perf_counter()
    deadline[0] = began + (seconds or 0)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    latencies.sort()
    return Figure(
        path,
        len(latencies) / wall,
        latencies[len(latencies) // 2] * 1e3,
        latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1e3,
        bad[0],
    )


def queries_per_request(path: str, headers: dict, *, method: str = "GET", body=None) -> int:
    """SQL queries of one request through the whole stack (middleware, authentication), in
    this process on the same database and cache, after a first request warmed them."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}
    if method == "GET":
        client.get(path, **extra)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path, **extra)
    else:
        with CaptureQueriesContext(connection) as queries:
            response = client.generic(method, path, body, content_type="application/json", **extra)
    if response.status_code >= 400:
        raise RuntimeError(f"{method} {path} answered {response.status_code} in-process")
    return len(queries)


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
        grading_args = argparse.Namespace(tasks=args.tasks, rounds=args.rounds)
        grading = bench_grading.measure(
            grading_args, label="stack", env=env, queue=queue, worker=worker
        )
    finally:
        stop(server)
        stop(worker)
        import redis

        client = redis.Redis.from_url(redis_url)
        client.delete(queue)
        keys = list(client.scan_iter(match=f"{env['CACHE_KEY_PREFIX']}:*", count=1000))
        if keys:
            client.delete(*keys)

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
        f"{grading['wait_ms_p99']:7.0f} | {grading['queries_per_grade']:>7} | "
        f"{grading['ratio']:5.2f} | {'>= 0.5':>7} | {'':>6} | {'':>9} |"
    )
    print(
        f"| {'no-op task through the same worker':<44} | {grading['noop_per_second']:7.0f} | "
        f"{'':>7} | {'':>7} | {0:>7} | {1:5.2f} | {'':>7} | {'':>6} | {'':>9} |"
    )
    print(
        "grading p50/p99: from stored to graded, in bursts of "
        f"{args.tasks} submissions (queueing included); queries: one first-pass grade; "
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
