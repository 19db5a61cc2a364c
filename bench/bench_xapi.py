#!/usr/bin/env python
"""Learning records: how fast queued xAPI statements drain into an LRS, and what a replay does.

    .venv/bin/python bench/bench_xapi.py [--lrs fake|ralph] [--statements 100000]
        [--batch 200, 2000 with --lrs ralph] [--learners 1000]

Against PostgreSQL (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/lp_bench_xapi, dropped and created, migrated), in process,
no Redis. It

1. queues `--statements` statements in bulk for `--learners` learners, every kind the site
   sends (xapi.statements: answers in lessons and on the Review page, completions,
   achievements and levels earned; ids uuid5 of their source);
2. starts a local LRS on 127.0.0.1 and drains the queue through
   `xapi.services.send_statements`, as the task does; prints statements per second. The LRS:
   - `fake` (default): the tests' fake LRS, in this process (each statement validated with
     Ralph's xAPI model, stored by id, 409 for an id held with other content);
   - `ralph`: Ralph's LRS with its file backend (xapi/tests/ralph_lrs.py, as the tests start
     it), in a process of its own with a temporary directory. Ralph's file backend reads its
     whole file to find the ids a POST holds already, so a request costs in proportion to
     what it stores: batches of 2,000 keep 100,000 statements to minutes;
3. replays every statement twice (marks them unsent, drains again) and prints the
   statements stored against the rows sent, the duplicates and the errors (target: stored =
   rows, 0 duplicates, 0 errors).

Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.postgres import in_process_environment, recreate_database  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_bench_xapi"
START = datetime(2026, 1, 1, tzinfo=UTC)


def configure(database_url: str) -> None:
    os.environ.update(
        in_process_environment(
            DATABASE_URL=database_url,
            ALLOWED_HOSTS="testserver,127.0.0.1",
            XAPI_LRS_URL="http://127.0.0.1:1/unset",
        )
    )
    os.environ.pop("REDIS_URL", None)


def _bodies(n: int, user_id: int) -> tuple[uuid.UUID, str, dict[str, Any]]:
    """The n-th statement: each kind the site sends in turn, with the id its source gives."""
    from xapi import statements

    at = START + timedelta(seconds=n)
    check = {"check_id": n % 300, "lesson_slug": f"lesson-{n % 30}", "correct": n % 3 != 0}
    timed = {**check, "duration_ms": 1000 + n % 5000}
    source, key, build, facts = [
        ("progress_lessoncompletion", f"{user_id}:{n}", statements.completed, {"lesson_slug": "l"}),
        (
            "achievements_achievementunlock",
            f"{user_id}:{n}",
            statements.earned_achievement,
            {"slug": f"a-{n % 10}", "title": "A"},
        ),
        (
            "progress_xpaward",
            f"{user_id}:check:{n}:level-{n % 14}",
            statements.earned_level,
            {"number": n % 14, "name": "L", "xp_total": n},
        ),
        ("reviews_reviewlog", str(n), statements.answered, {**timed, "review_rating": "good"}),
        (
            "exercises_checkanswer",
            f"{user_id}:{n % 300}:{at.isoformat()}",
            statements.answered,
            {**timed, "first_try": n % 2 == 0},
        ),
    ][n % 5]
    sid = statements.statement_id(source, key)
    body = build(statement=sid, site="http://127.0.0.1:8000", user_id=user_id, at=at, **facts)
    return sid, body["verb"]["display"]["en-US"], body


def queue_statements(count: int, learners: int) -> None:
    from accounts.models import User
    from xapi.models import Statement

    users = User.objects.bulk_create(
        User(email=f"bench-{n}@example.com", password="!", public_handle=f"b{n}")
        for n in range(learners)
    )
    batch: list[Statement] = []
    for n in range(count):
        user = users[n % learners]
        sid, verb, body = _bodies(n, user.pk)
        batch.append(Statement(id=sid, user_id=user.pk, verb=verb, body=body))
        if len(batch) == 5000:
            Statement.objects.bulk_create(batch)
            batch = []
    Statement.objects.bulk_create(batch)


def drain(batch_size: int) -> tuple[int, int, float]:
    """Send every unsent statement, as the task does: (stored, conflicts, seconds)."""
    from xapi import services

    started = time.perf_counter()
    stored = conflicts = 0
    while True:
        sent = services.send_statements(batch_size=batch_size)
        if not sent.stored and not sent.conflicts:
            break
        stored += sent.stored
        conflicts += sent.conflicts
    return stored, conflicts, time.perf_counter() - started


@contextmanager
def local_lrs(kind: str) -> Iterator[Callable[[], tuple[int, int, int]]]:
    """Start the LRS and point the settings at it; yields what reads (stored, duplicates,
    HTTP errors) from it."""
    from django.conf import settings

    if kind == "ralph":
        from xapi.tests.ralph_lrs import running_ralph

        with (
            tempfile.TemporaryDirectory(prefix="bench-ralph-") as directory,
            running_ralph(Path(directory)) as ralph,
        ):
            settings.XAPI_LRS_URL = ralph.xapi_url
            settings.XAPI_LRS_USERNAME = ralph.username
            settings.XAPI_LRS_PASSWORD = ralph.password
            # An error from Ralph is an exception in the sender (LrsUnavailable), which ends
            # the bench: a run that finishes had none.
            yield lambda: (*ralph.counts(), 0)
        return
    from xapi.tests.conftest import FakeLrs, _handler

    lrs = FakeLrs()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(lrs))
    settings.XAPI_LRS_URL = f"http://127.0.0.1:{server.server_address[1]}/xapi"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        # It stores by id (a dict): a duplicate replaces nothing and cannot be counted twice.
        yield lambda: (
            len(lrs.stored),
            0,
            sum(1 for r in lrs.requests if r.get("status", 200) >= 400),
        )
    finally:
        server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lrs", choices=["fake", "ralph"], default="fake")
    parser.add_argument("--statements", type=int, default=100_000)
    parser.add_argument("--batch", type=int, help="default 200; 2000 with --lrs ralph")
    parser.add_argument("--learners", type=int, default=1000)
    args = parser.parse_args()
    # A SIGTERM (timeout, kill) unwinds like an exception: Ralph's server is stopped and its
    # temporary directory removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    batch = args.batch or (2000 if args.lrs == "ralph" else 200)
    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    recreate_database(database_url)
    configure(database_url)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db.models import Count

    call_command("migrate", verbosity=0)
    from xapi.models import Statement

    started = time.perf_counter()
    queue_statements(args.statements, args.learners)
    kinds = dict(Statement.objects.values_list("verb").annotate(n=Count("id")).order_by("verb"))
    print(
        f"queued {Statement.objects.count():,} statements in "
        f"{time.perf_counter() - started:.1f} s ({kinds})"
    )
    with local_lrs(args.lrs) as lrs_counts:
        stored, conflicts, seconds = drain(batch)
        print(
            f"{args.lrs} LRS: drained {stored:,} statements in {seconds:.1f} s: "
            f"{stored / seconds:,.0f} statements/s (batches of {batch}; conflicts {conflicts})"
        )
        rows = Statement.objects.count()
        for replay in (1, 2):
            Statement.objects.update(sent_at=None)
            again, conflicts, seconds = drain(batch)
            print(
                f"replay {replay}: {again:,} statements sent again in {seconds:.1f} s "
                f"({again / seconds:,.0f}/s; conflicts {conflicts})"
            )
        held, duplicates, errors = lrs_counts()
        failed = Statement.objects.exclude(last_error="").count()
        print(
            f"rows {rows:,}; statements stored by the LRS {held:,}; duplicates {duplicates:,} "
            f"(3 sends of each); errors {errors + failed}; "
            f"unsent {Statement.objects.filter(sent_at__isnull=True).count()}"
        )


if __name__ == "__main__":
    main()
