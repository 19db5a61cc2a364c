#!/usr/bin/env python
"""How long a cheap check (numeric, choice, ordering) takes to grade in the request.

    .venv/bin/python bench/bench_checks.py [--answers 1000] [--learners 200] [--no-redis]

Against PostgreSQL (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/lp_bench_checks, dropped and created, migrated) with the
curriculum of content/ loaded, and Redis as the cache (REDIS_URL, default
redis://127.0.0.1:6379/0, keys under a prefix of the run's own) unless --no-redis. In process,
through Django's whole request stack (the test client: middleware, DRF, the session): signed-in
learners post `--answers` answers to the quest's checks, lesson after lesson, 60 % right (a
first right answer pays XP; the last check of a lesson completes it), the rest wrong, each
kind as often as the quest asks it. Then as many requests to `/healthz` (a bare JsonResponse
through the same middleware), interleaved in rounds of 100 so both see the same machine.
Prints p50 and p99 of each, their ratio, and the SQL statements of one answer of each path
(signed out, wrong, first right, completing the lesson): the counts
`exercises/tests/test_checks_query_counts.py` pins. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.postgres import in_process_environment, recreate_database  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_bench_checks"


def configure(database_url: str, redis_url: str | None) -> None:
    os.environ.update(
        in_process_environment(
            DATABASE_URL=database_url,
            ALLOWED_HOSTS="testserver,127.0.0.1",
            # The rate limit is not what this measures.
            THROTTLE_CHECK_ANSWERS="1000000/min",
        )
    )
    if redis_url:
        os.environ.update(REDIS_URL=redis_url, CACHE_KEY_PREFIX="bench-checks-" + uuid.uuid4().hex)
    else:
        os.environ.pop("REDIS_URL", None)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", type=int, default=1000)
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--no-redis", action="store_true")
    args = parser.parse_args()
    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    redis_url = None if args.no_redis else os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    configure(database_url, redis_url)
    recreate_database(database_url)

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from curriculum.services import load_curriculum
    from lessons import checks
    from lessons.models import Block

    t0 = time.perf_counter()
    call_command("migrate", verbosity=0)
    load_curriculum(root=ROOT / "content")
    learners = [
        User.objects.create_user(email=f"bench-checks-{n}@example.com", password=None)
        for n in range(args.learners)
    ]
    blocks = list(
        Block.objects.filter(kind="check", lesson__quest__slug="transformers").order_by(
            "lesson__position", "position"
        )
    )
    print(
        f"setup: {time.perf_counter() - t0:.1f} s, {len(blocks)} checks, {len(learners)} learners"
    )

    rng = random.Random(7)

    def body(block: Block, right: bool) -> dict:
        spec = block.spec
        answer = checks.CHECK_TYPES[spec["type"]].right_answer(spec)
        if right:
            return answer
        if spec["type"] == "numeric":
            return {"value": str(float(spec["answer"]) * 2 + 1)}
        if spec["type"] == "choice":
            wrong = [
                o for o in checks.public_check(spec)["options"] if o["id"] not in answer["options"]
            ]
            return {"options": [wrong[0]["id"]]}
        items = answer["items"]
        return {"items": [items[1], items[0], *items[2:]]}

    clients = []
    for learner in learners:
        client = Client()
        client.force_login(learner)
        clients.append(client)

    plan = []  # (client index, block, right)
    position = [0] * len(clients)
    while len(plan) < args.answers:
        who = rng.randrange(len(clients))
        block = blocks[position[who] % len(blocks)]
        right = rng.random() < 0.6
        plan.append((who, block, right))
        if right:
            position[who] += 1

    answer_times: list[float] = []
    bare_times: list[float] = []
    bare = Client()
    for start in range(0, len(plan), 100):
        for who, block, right in plan[start : start + 100]:
            t = time.perf_counter()
            response = clients[who].post(
                f"/api/v1/checks/{block.pk}/answers",
                {"answer": body(block, right)},
                content_type="application/json",
            )
            answer_times.append(time.perf_counter() - t)
            assert response.status_code == 200, response.content
        for _ in range(min(100, len(plan) - start)):
            t = time.perf_counter()
            response = bare.get("/healthz")
            bare_times.append(time.perf_counter() - t)
            assert response.status_code == 200

    def ms(value: float) -> str:
        return f"{value * 1000:7.2f} ms"

    print(f"\n{'':28} {'p50':>10} {'p99':>10} {'mean':>10}")
    for name, times in (("answer a check", answer_times), ("/healthz (bare)", bare_times)):
        print(
            f"{name:28} {ms(statistics.median(times))} {ms(percentile(times, 0.99))} "
            f"{ms(statistics.fmean(times))}"
        )
    ratio = statistics.median(bare_times) / statistics.median(answer_times)
    print(f"ratio of p50s (bare / answer): {ratio:.2f}  ({len(answer_times)} answers)")

    # One answer of each path, on a fresh learner and lesson: the statements it runs.
    learner = User.objects.create_user(email="bench-checks-counts@example.com", password=None)
    client = Client()
    client.force_login(learner)
    client.get("/healthz")
    lesson_blocks = [b for b in blocks if b.lesson_id == blocks[-1].lesson_id]
    first, last = lesson_blocks[0], lesson_blocks[-1]
    paths = [
        ("signed out", Client(), first, True),
        ("wrong", client, first, False),
        ("first right (pays XP)", client, first, True),
        *[("right", client, b, True) for b in lesson_blocks[1:-1]],
        ("completes the lesson", client, last, True),
    ]
    print("\nSQL statements per answer:")
    for name, who, block, right in paths:
        with CaptureQueriesContext(connection) as queries:
            who.post(
                f"/api/v1/checks/{block.pk}/answers",
                {"answer": body(block, right)},
                content_type="application/json",
            )
        if name != "right":
            print(f"  {name:24} {len(queries.captured_queries)}")


if __name__ == "__main__":
    main()
