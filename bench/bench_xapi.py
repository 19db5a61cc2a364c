#!/usr/bin/env python
"""Learning records: how fast queued xAPI statements drain into an LRS, and what a replay does.

    .venv/bin/python bench/bench_xapi.py [--statements 100000] [--batch 200] [--learners 1000]

Against PostgreSQL (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/lp_bench_xapi, dropped and created, migrated), in process,
no Redis. It

1. queues `--statements` `answered` statements (xapi.statements, ids uuid5 of their source)
   for `--learners` learners, in bulk;
2. starts a local LRS on 127.0.0.1 (the tests' fake LRS: each statement validated with
   Ralph's xAPI model, stored by id, 409 for an id held with other content) and drains the
   queue through `xapi.services.send_statements`, as the task does; prints statements per
   second;
3. replays every statement twice (marks them unsent, drains again) and prints the
   statements stored against the rows sent, the duplicates and the errors (target: stored =
   rows, 0 duplicates, 0 errors).

Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from http.server import ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_bench_xapi"


def configure(database_url: str) -> None:
    os.environ.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="learning_platform.settings",
        DEBUG="0",
        SECRET_KEY="bench-only-" + uuid.uuid4().hex,
        ALLOWED_HOSTS="testserver,127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        LOG_LEVEL="WARNING",
        XAPI_LRS_URL="http://127.0.0.1:1/unset",
    )
    os.environ.pop("REDIS_URL", None)


def recreate_database(database_url: str) -> None:
    import psycopg

    base, name = database_url.rsplit("/", 1)
    if "bench" not in name:
        raise SystemExit(f"refusing to drop {name!r}: its name must contain 'bench'")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def queue_statements(count: int, learners: int) -> None:
    from accounts.models import User
    from xapi import statements
    from xapi.models import Statement

    users = User.objects.bulk_create(
        User(email=f"bench-{n}@example.com", password="!", public_handle=f"b{n}")
        for n in range(learners)
    )
    start = datetime(2026, 1, 1, tzinfo=UTC)
    batch: list[Statement] = []
    for n in range(count):
        user = users[n % learners]
        at = start + timedelta(seconds=n)
        sid = statements.statement_id(
            "exercises_checkanswer", f"{user.pk}:{n % 300}:{at.isoformat()}"
        )
        body = statements.answered(
            statement=sid,
            site="http://127.0.0.1:8000",
            user_id=user.pk,
            check_id=n % 300,
            lesson_slug=f"lesson-{n % 30}",
            correct=n % 3 != 0,
            first_try=n % 2 == 0,
            at=at,
            duration_ms=1000 + n % 5000,
        )
        batch.append(Statement(id=sid, user_id=user.pk, verb="answered", body=body))
        if len(batch) == 5000:
            Statement.objects.bulk_create(batch)
            batch = []
    Statement.objects.bulk_create(batch)


def drain(batch_size: int) -> tuple[int, float]:
    from xapi import services

    started = time.perf_counter()
    stored = 0
    while True:
        sent = services.send_statements(batch_size=batch_size)
        if not sent.stored and not sent.conflicts:
            break
        stored += sent.stored
    return stored, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--statements", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--learners", type=int, default=1000)
    args = parser.parse_args()
    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    recreate_database(database_url)
    configure(database_url)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from xapi.models import Statement
    from xapi.tests.conftest import FakeLrs, _handler

    started = time.perf_counter()
    queue_statements(args.statements, args.learners)
    print(
        f"queued {Statement.objects.count():,} statements in {time.perf_counter() - started:.1f} s"
    )

    lrs = FakeLrs()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(lrs))
    settings.XAPI_LRS_URL = f"http://127.0.0.1:{server.server_address[1]}/xapi"
    threading.Thread(target=server.serve_forever, daemon=True).start()

    stored, seconds = drain(args.batch)
    print(
        f"drained {stored:,} statements in {seconds:.1f} s: {stored / seconds:,.0f} statements/s "
        f"(batches of {args.batch}, {len(lrs.requests):,} requests)"
    )
    rows = Statement.objects.count()
    for replay in (1, 2):
        Statement.objects.update(sent_at=None)
        again, seconds = drain(args.batch)
        print(f"replay {replay}: {again:,} statements sent again in {seconds:.1f} s")
    errors = sum(1 for r in lrs.requests if r.get("status", 200) >= 400)
    print(
        f"rows {rows:,}; statements stored by the LRS {len(lrs.stored):,}; "
        f"duplicates {len(lrs.stored) - rows:,} (3 sends of each); "
        f"errors {errors}; unsent {Statement.objects.filter(sent_at__isnull=True).count()}"
    )
    server.shutdown()


if __name__ == "__main__":
    main()
