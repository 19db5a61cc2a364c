#!/usr/bin/env python
"""Requests per second of `GET /api/v1/me/progress` next to a bare Django JsonResponse view.

    .venv/bin/python bench/bench_progress.py [--requests 2000] [--threads 4] [--rounds 3]

Against PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/lp_bench; the
database is created if missing): migrates, loads the curriculum (or makes 94 lessons), gives a
learner realistic progress (40 completions over 8 days, the achievements they earn), starts
gunicorn (2 sync workers, DEBUG off) on a free 127.0.0.1 port serving the project plus
`/bench/bare`, signs in through allauth's app API, then drives both URLs with the same client
(threads, http.client) and the same `X-Session-Token` header, alternating rounds. Prints the
requests per second of each (median of the rounds), their ratio (target >= 0.4) and the SQL
queries one /me/progress request runs through the whole stack. Stops the server at the end.
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_bench"
EMAIL = "bench-progress@example.com"
PASSWORD = "bench-progress-Passw0rd!"
PROGRESS_PATH = "/api/v1/me/progress"
BARE_PATH = "/bench/bare"
COMPLETIONS = 40
BENCH_QUEUE = "bench-progress"


def server_env(database_url: str, redis_url: str | None) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "bench.progress_settings",
        "DEBUG": "0",
        "TESTING": "0",
        "SECRET_KEY": "bench-only-" + uuid.uuid4().hex,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.pop("ENV_FILE", None)
    if redis_url:
        # As deployed: Redis is the cache (sessions, the progress header). Any task a request
        # enqueues goes to a queue of the bench's own, emptied at the end.
        env.update(
            REDIS_URL=redis_url,
            CACHE_KEY_PREFIX="bench-progress",
            CELERY_TASK_DEFAULT_QUEUE=BENCH_QUEUE,
        )
    else:
        # --no-redis: local-memory cache per process, tasks in-process.
        env.pop("REDIS_URL", None)
    return env


def prepare_data() -> dict:
    """Migrate and set up the curriculum and one learner with realistic progress."""
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections
    from django.utils import timezone

    from accounts.models import User
    from lessons.models import Lesson, Quest
    from progress import services
    from progress.models import LessonCompletion

    call_command("migrate", verbosity=0)
    quest_slug = settings.DEMO_QUEST_SLUG
    if Lesson.objects.published().filter(quest__slug=quest_slug).count() < 94:
        try:
            call_command("load_curriculum", str(ROOT / "content"), verbosity=0)
        except Exception as exc:  # a broken or absent curriculum: make 94 lessons instead
            print(f"load_curriculum failed ({exc}); making 94 synthetic lessons")
    lessons = list(Lesson.objects.published().filter(quest__slug=quest_slug).order_by("position"))
    if len(lessons) < 94:
        quest, _ = Quest.objects.get_or_create(slug=quest_slug, defaults={"title": "Transformers"})
        for n in range(len(lessons), 94):
            Lesson.objects.get_or_create(
                slug=f"bench-lesson-{n}",
                defaults={"quest": quest, "title": f"Lesson {n}", "position": n, "published": True},
            )
        lessons = list(Lesson.objects.published().filter(quest=quest).order_by("position"))

    user = User.objects.filter(email=EMAIL).first()
    if user is None:
        user = User.objects.create_user(EMAIL, PASSWORD, display_name="Bench Learner")
    if not LessonCompletion.objects.filter(user=user).exists():
        now = timezone.now()
        events = [
            {
                "id": str(uuid.uuid4()),
                "type": "lesson_completed",
                "lesson": lesson.slug,
                "occurred_at": (now - timedelta(days=7 - i * 8 // COMPLETIONS)).isoformat(),
            }
            for i, lesson in enumerate(lessons[:COMPLETIONS])
        ]
        services.sync_progress(user=user, device_id="bench-phone", events=events)
    connections.close_all()
    return {"lessons": len(lessons)}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(port: int, method: str, path: str, *, headers=None, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def stop(process: subprocess.Popen, *, timeout: float = 20) -> None:
    """Stop a server started in its own session: SIGTERM to its process group, SIGKILL if it
    is still there after `timeout` seconds."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_for_server(port: int, process: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited early")
        try:
            if request(port, "GET", "/healthz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer in time")


def sign_in(port: int) -> str:
    status, body = request(
        port,
        "POST",
        "/_allauth/app/v1/auth/login",
        headers={"Content-Type": "application/json"},
        body=json.dumps({"email": EMAIL, "password": PASSWORD}),
    )
    if status != 200:
        raise RuntimeError(f"sign-in failed: {status} {body[:300]!r}")
    return json.loads(body)["meta"]["session_token"]


def drive(port: int, path: str, headers: dict, *, total: int, threads: int) -> tuple[float, int]:
    """Send `total` GETs from `threads` threads; answer (requests per second, failures)."""
    per_thread = [total // threads + (1 if i < total % threads else 0) for i in range(threads)]
    failures = [0] * threads
    start_line = threading.Barrier(threads + 1)

    def worker(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        start_line.wait()
        for _ in range(per_thread[index]):
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    failures[index] += 1
                if response.will_close:
                    # gunicorn's sync workers close after each answer: connect again.
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            except (OSError, http.client.HTTPException):
                failures[index] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.close()

    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    start_line.wait()
    began = time.perf_counter()
    for thread in pool:
        thread.join()
    elapsed = time.perf_counter() - began
    return total / elapsed, sum(failures)


def full_stack_queries(token: str) -> int:
    """SQL queries of one /me/progress request through middleware and authentication."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    client.get(PROGRESS_PATH, HTTP_X_SESSION_TOKEN=token)  # warm: connection, caches
    with CaptureQueriesContext(connection) as queries:
        response = client.get(PROGRESS_PATH, HTTP_X_SESSION_TOKEN=token)
    assert response.status_code == 200, response.content
    return len(queries)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="per view and round")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        help="Redis for the cache, as deployed (default: REDIS_URL or 127.0.0.1:6379/0)",
    )
    parser.add_argument(
        "--no-redis",
        action="store_true",
        help="the embedded default instead: local-memory cache, no progress-header cache",
    )
    args = parser.parse_args()
    redis_url = None if args.no_redis else args.redis_url

    database_url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    if not database_url.startswith(("postgres://", "postgresql://")):
        print("bench_progress needs PostgreSQL (DATABASE_URL=postgres://...)", file=sys.stderr)
        return 2
    env = server_env(database_url, redis_url)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    from bench.postgres import ensure_database

    ensure_database(database_url)
    data = prepare_data()

    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "learning_platform.wsgi:application",
            "--workers", str(args.workers), "--worker-class", "sync",
            "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )  # fmt: skip
    try:
        wait_for_server(port, server)
        token = sign_in(port)
        headers = {"X-Session-Token": token, "Accept": "application/json"}
        status, body = request(port, "GET", PROGRESS_PATH, headers=headers)
        if status != 200:
            raise RuntimeError(f"/me/progress answered {status}: {body[:300]!r}")
        progress = json.loads(body)
        status, _ = request(port, "GET", BARE_PATH, headers=headers)
        if status != 200:
            raise RuntimeError(f"{BARE_PATH} answered {status}")

        warmup = max(100, args.requests // 10)
        for path in (BARE_PATH, PROGRESS_PATH):
            drive(port, path, headers, total=warmup, threads=args.threads)
        rates: dict[str, list[float]] = {BARE_PATH: [], PROGRESS_PATH: []}
        failures = 0
        for _ in range(args.rounds):
            for path in (BARE_PATH, PROGRESS_PATH):
                rate, failed = drive(port, path, headers, total=args.requests, threads=args.threads)
                rates[path].append(rate)
                failures += failed
    finally:
        stop(server, timeout=15)

    bare = statistics.median(rates[BARE_PATH])
    mine = statistics.median(rates[PROGRESS_PATH])
    queries = full_stack_queries(token)
    print(
        f"learner: level {progress['level']['number']} {progress['level']['name']}, "
        f"{progress['xp']} XP, {progress['lessons_completed']}/{progress['lessons_total']} "
        f"lessons, {progress['achievements_unlocked']}/{progress['achievements_total']} "
        f"achievements, streak {progress['streak']['current']} (quest lessons: {data['lessons']})"
    )
    print(
        f"gunicorn: {args.workers} sync workers on 127.0.0.1:{port}; client: {args.threads} "
        f"threads, {args.rounds} rounds x {args.requests} requests per view, {os.cpu_count()} CPUs"
    )
    print(f"bare JsonResponse      {bare:8.1f} req/s  (rounds: {_fmt(rates[BARE_PATH])})")
    print(f"/api/v1/me/progress    {mine:8.1f} req/s  (rounds: {_fmt(rates[PROGRESS_PATH])})")
    print(f"ratio                  {mine / bare:8.2f}   (target >= 0.40)")
    print(f"SQL queries per /me/progress request, whole stack: {queries}")
    print(f"cache: {'Redis ' + redis_url if redis_url else 'local memory (--no-redis)'}")
    if redis_url:
        import redis

        redis.Redis.from_url(redis_url).delete(BENCH_QUEUE)
    if failures:
        print(f"FAILED requests: {failures}")
    return 1 if failures else 0


def _fmt(rates: list[float]) -> str:
    return ", ".join(f"{r:.0f}" for r in rates)


if __name__ == "__main__":
    sys.exit(main())
