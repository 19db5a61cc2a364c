"""CPU per request of the hot reads, in one process, through Django's WSGI handler.

    .venv/bin/python bench/profile_reads.py                 # CPU per request of each read
    .venv/bin/python bench/profile_reads.py --profile lesson-in   # + cProfile of one read

PostgreSQL at BENCH_DATABASE_URL (default .../lp_profile_reads, created, migrated and seeded
with bench/stack.py's seed at a small size), Redis at BENCH_REDIS_URL (default REDIS_URL), keys
under a prefix of the run's own. Each read is warmed, then timed in `--batches` batches of
`--requests` (`time.process_time`); the figure is the best batch, the least disturbed by the
rest of the machine. No server, no client: what is left is the application's own CPU (and
its cache round trips' syscalls), the part a ratio to `/healthz` is made of.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.postgres import ensure_database  # noqa: E402
from bench.redis_keys import delete_keys  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_profile_reads"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--profile", default="", help="name of a read to profile with cProfile")
    parser.add_argument("--only", default="", help="comma-separated names of reads to time")
    args = parser.parse_args()

    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    redis_url = os.environ.get(
        "BENCH_REDIS_URL", os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    )
    prefix = f"profile-reads-{uuid.uuid4().hex[:8]}"
    os.environ.update(
        DJANGO_SETTINGS_MODULE="learning_platform.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        CACHE_KEY_PREFIX=prefix,
        DEBUG="false",
        TESTING="false",
        SECRET_KEY="profile-reads-" + "x" * 40,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        LOG_LEVEL="WARNING",
    )
    ensure_database(database_url)
    import django

    django.setup()
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler

    from accounts.models import User
    from bench import stack_data

    stack_data.seed(learners=50, rng=random.Random(11))
    token = stack_data.session_token_for(User.objects.get(email=stack_data.EMAIL))
    signed_in = {"HTTP_X_SESSION_TOKEN": token}
    quest = settings.DEMO_QUEST_SLUG
    lesson = f"/api/v1/lessons/{stack_data.LESSON}/"
    reads = {
        "healthz": ("/healthz", {}),
        "lesson-out": (lesson, {}),
        "lesson-in": (lesson, signed_in),
        "outline-in": (f"/api/v1/quests/{quest}/", signed_in),
        "comments": (f"{lesson}comments/", {}),
        "achievements-in": ("/api/v1/achievements/", signed_in),
        "me-progress": ("/api/v1/me/progress", signed_in),
        "levels": ("/api/v1/levels/", {}),
    }
    if args.only:
        reads = {name: reads[name] for name in args.only.split(",")}
    handler = WSGIHandler()

    def call(path: str, headers: dict) -> int:
        return wsgi_get(handler, path, headers)

    try:
        healthz_ms = None
        print(f"{'read':<16} {'CPU ms/request':>15} {'ratio to /healthz':>18}")
        for name, (path, headers) in reads.items():
            for _ in range(50):
                status = call(path, headers)
                if status != 200:
                    raise RuntimeError(f"{path} answered {status}")
            best = min(_batch(call, path, headers, args.requests) for _ in range(args.batches))
            if name == "healthz":
                healthz_ms = best
            ratio = f"{healthz_ms / best:18.2f}" if healthz_ms else ""
            print(f"{name:<16} {best:15.3f} {ratio}")
        if args.profile:
            path, headers = reads[args.profile]
            profiler = cProfile.Profile(time.process_time)  # CPU, not waiting on Redis
            profiler.enable()
            for _ in range(1000):
                call(path, headers)
            profiler.disable()
            stats = pstats.Stats(profiler)
            stats.sort_stats("cumulative").print_stats(45)
            stats.sort_stats("tottime").print_stats(25)
    finally:
        delete_keys(redis_url, f"{prefix}:*")
    return 0


def wsgi_get(handler, path: str, headers: dict) -> int:
    """GET `path` (a query string after `?`) through Django's WSGI `handler`, the body read
    out as a server would; the status code."""
    path_info, _, query = path.partition("?")
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path_info,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        **headers,
    }
    status = []
    body = handler(environ, lambda s, h, exc_info=None: status.append(s))
    b"".join(body)
    body.close()
    return int(status[0].split()[0])


def _batch(call, path: str, headers: dict, requests: int) -> float:
    started = time.process_time()
    for _ in range(requests):
        call(path, headers)
    return (time.process_time() - started) / requests * 1e3


if __name__ == "__main__":
    sys.exit(main())
