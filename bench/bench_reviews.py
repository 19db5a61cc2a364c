#!/usr/bin/env python
"""Spaced review at scale: the due-queue read over a million cards, and the FSRS optimizer.

    .venv/bin/python bench/bench_reviews.py [--learners 100000] [--cards-per-learner 10]
                                            [--reads 2000] [--fit-reviews 100000] [--keep-data]

Against PostgreSQL (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/lp_bench_reviews, dropped and created, migrated), in
process, no Redis (the reads under test touch none). It

1. creates `--learners` learners and `--learners` x `--cards-per-learner` review cards in bulk
   (INSERT ... SELECT over generate_series: one statement each), over one quest of 30 lessons of
   10 checks, each card due somewhere in the 30 days around now (a third of them due), with a
   review log each, then VACUUM ANALYZE; prints how long that took;
2. reads the due queue of `--reads` random learners (`reviews.selectors.due_queue`: the due
   cards with their checks, one statement; its SQL time and this process' CPU time apart) and
   their `/me/reviews/summary` count, a one-row ORM read as a baseline of the machine's speed,
   the queue's statement as PostgreSQL times it (EXPLAIN ANALYZE: no round trip, no wait for
   this process' CPU), and the queue again through Django's whole request stack (the test
   client: middleware, DRF, the session); prints p50, p99 and the mean of each, and the load
   average (target: the queue's p99 at most 5 ms);
3. prints the SQL statements of one review answer (`reviews/tests/test_query_counts.py` pins
   their count);
4. fits FSRS parameters (`reviews.fitting.fit`, fsrs-rs-python) to `--fit-reviews` synthetic
   reviews (reviews/tests/histories.py: learners whose memory follows FSRS with stronger
   growth than the defaults), and prints how long generating and fitting took, and the log loss
   and RMSE of the fit and of the defaults on the held-out reviews (target: under a minute).

Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.postgres import in_process_environment, recreate_database  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_bench_reviews"
CHECKS = 300


def configure(database_url: str) -> None:
    os.environ.update(
        in_process_environment(
            DATABASE_URL=database_url,
            ALLOWED_HOSTS="testserver,127.0.0.1",
            THROTTLE_CHECK_ANSWERS="1000000/min",
        )
    )
    os.environ.pop("REDIS_URL", None)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def ms(value: float) -> str:
    return f"{value * 1000:8.3f} ms"


def create_content() -> list[int]:
    """One quest of 30 published lessons of 10 numeric checks each: the checks' ids."""
    from lessons.models import Block, Lesson, Quest

    quest = Quest.objects.create(slug="bench-reviews", title="Bench reviews")
    spec = {"key": "k", "type": "numeric", "answer": 64, "explanation": "768 / 12 = 64."}
    ids = []
    for n in range(CHECKS // 10):
        lesson = Lesson.objects.create(
            quest=quest, slug=f"bench-lesson-{n}", title=f"Lesson {n}", published=True
        )
        blocks = Block.objects.bulk_create(
            Block(
                lesson=lesson,
                kind="check",
                position=k,
                markdown="How many dimensions?",
                html="<p>How many dimensions?</p>",
                spec={**spec, "key": f"check-{k}"},
            )
            for k in range(10)
        )
        ids += [b.pk for b in blocks]
    return ids


def create_cards(learners: int, per_learner: int, check_ids: list[int]) -> None:
    """Learners, cards and a log per card, each in one INSERT ... SELECT."""
    from django.db import connection

    first, last = min(check_ids), max(check_ids)
    assert last - first + 1 == len(check_ids), "the checks' ids are consecutive"
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO accounts_user (password, is_superuser, email, display_name,
                display_name_key, public_handle, time_zone, reply_notifications,
                email_notifications, show_on_leaderboard, is_staff, is_active, date_joined)
            SELECT '!', false, 'bench-' || n || '@example.com', '', '', 'b' || n, 'UTC',
                true, true, true, false, true, now() - interval '60 days'
            FROM generate_series(1, %s) AS n
            """,
            [learners],
        )
        cursor.execute(
            """
            INSERT INTO reviews_reviewcard (user_id, check_block_id, lesson_id, quest_id,
                state, step, stability, difficulty, due, last_review, reps, lapses, created_at)
            SELECT u.id, b.id, b.lesson_id, l.quest_id, 2, NULL, 3.0, 5.0,
                now() - interval '10 days' + (random() * interval '30 days'),
                now() - interval '20 days', 2, 0, now()
            FROM accounts_user AS u
            CROSS JOIN generate_series(0, %s - 1) AS k
            JOIN lessons_block AS b ON b.id = %s + ((u.id * 7 + k * 31) %% %s)
            JOIN lessons_lesson AS l ON l.id = b.lesson_id
            WHERE u.email LIKE 'bench-%%'
            """,
            [per_learner, first, len(check_ids)],
        )
        cursor.execute(
            """
            INSERT INTO reviews_reviewlog (user_id, card_id, quest_id, source, rating,
                state_before, correct, reviewed_at, duration_ms, due_after, stability_after,
                difficulty_after, xp_awarded, day, event_id, device_id, created_at)
            SELECT c.user_id, c.id, c.quest_id, 'lesson', 3, 0, true, c.last_review, NULL,
                c.due, c.stability, c.difficulty, 0, NULL, '', '', now()
            FROM reviews_reviewcard AS c
            """
        )
        # As autovacuum leaves a table after inserts: statistics, and pages marked all-visible
        # (an index-only scan reads no table page of those).
        cursor.execute("VACUUM ANALYZE")


def time_reads(user_ids: list[int], reads: int) -> dict[str, list[float]]:
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from reviews import selectors

    sql = [0.0]

    def timed(execute, sql_text, params, many, context):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        try:
            return execute(sql_text, params, many, context)
        finally:
            sql[0] += time.perf_counter() - t

    rng = random.Random(11)
    sample = [User.objects.get(pk=rng.choice(user_ids)) for _ in range(reads)]
    times: dict[str, list[float]] = {
        "due queue (selector)": [],
        "due queue (its SQL only)": [],
        "due queue (this process' CPU)": [],
        "summary (selector)": [],
        "one-row ORM read (baseline)": [],
    }
    with connection.execute_wrapper(timed):
        for user in sample:
            now = timezone.now()
            sql[0] = 0.0
            t, cpu = time.perf_counter(), time.process_time()
            selectors.due_queue(user=user, now=now)
            times["due queue (selector)"].append(time.perf_counter() - t)
            times["due queue (this process' CPU)"].append(time.process_time() - cpu)
            times["due queue (its SQL only)"].append(sql[0])
            t = time.perf_counter()
            selectors.review_summary(user=user, now=now)
            times["summary (selector)"].append(time.perf_counter() - t)
            t = time.perf_counter()
            User.objects.filter(pk=user.pk).values_list("id", flat=True).first()
            times["one-row ORM read (baseline)"].append(time.perf_counter() - t)
    times["due queue (in PostgreSQL)"] = in_postgres(sample)
    times["GET /me/reviews (request)"] = []
    for user in sample[: max(1, reads // 4)]:
        client = Client()
        client.force_login(user)
        client.get("/api/v1/me/reviews")  # the session read once
        t = time.perf_counter()
        response = client.get("/api/v1/me/reviews")
        times["GET /me/reviews (request)"].append(time.perf_counter() - t)
        assert response.status_code == 200
    return times


def in_postgres(sample: list[Any]) -> list[float]:
    """The queue's statement as PostgreSQL times it (EXPLAIN ANALYZE: planning and execution),
    without the round trip and this process' wait for a CPU."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from reviews import selectors

    times = []
    for user in sample:
        with CaptureQueriesContext(connection) as seen:
            selectors.due_queue(user=user, now=timezone.now())
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + seen.captured_queries[0]["sql"])
            plan = cursor.fetchone()[0][0]
        times.append((plan["Planning Time"] + plan["Execution Time"]) / 1000)
    return times


def print_answer_statements(user_id: int) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from accounts.models import User
    from reviews.models import ReviewCard

    card = ReviewCard.objects.filter(user_id=user_id, due__lte=timezone.now()).first()
    if card is None:
        return
    client = Client()
    client.force_login(User.objects.get(pk=user_id))
    client.get("/api/v1/me/reviews/summary")
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/api/v1/me/reviews/{card.check_block_id}/answers",
            {"answer": {"value": "64"}},
            content_type="application/json",
        )
    assert response.status_code == 200, response.content
    print(f"\nSQL statements of one review answer (a due card, paying XP): {len(queries)}")
    for query in queries.captured_queries:
        print("  " + " ".join(query["sql"].split())[:110])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=100_000)
    parser.add_argument("--cards-per-learner", type=int, default=10)
    parser.add_argument("--reads", type=int, default=2000)
    parser.add_argument("--fit-reviews", type=int, default=100_000)
    parser.add_argument(
        "--keep-data",
        action="store_true",
        help="read the cards a previous run left in the database instead of making them again",
    )
    args = parser.parse_args()
    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    configure(database_url)
    if not args.keep_data:
        recreate_database(database_url)

    import django

    django.setup()
    from django.core.management import call_command

    from reviews import fitting
    from reviews.models import ReviewCard
    from reviews.tests.histories import histories, memory

    call_command("migrate", verbosity=0)
    if not args.keep_data:
        check_ids = create_content()
        t0 = time.perf_counter()
        create_cards(args.learners, args.cards_per_learner, check_ids)
        generation = time.perf_counter() - t0
    cards = ReviewCard.objects.count()
    user_ids = list(ReviewCard.objects.values_list("user_id", flat=True).distinct())
    if args.keep_data:
        print(f"kept {cards:,} cards over {len(user_ids):,} learners from an earlier run")
    else:
        print(
            f"generated {cards:,} cards (and as many review logs) over {len(user_ids):,} "
            f"learners in {generation:.1f} s (INSERT ... SELECT, then VACUUM ANALYZE)"
        )

    times = time_reads(user_ids, args.reads)
    print(f"\nload average while reading: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"\n{'':31} {'p50':>11} {'p99':>11} {'mean':>11}   reads")
    for name, values in times.items():
        print(
            f"{name:31} {ms(statistics.median(values))} {ms(percentile(values, 0.99))} "
            f"{ms(statistics.fmean(values))}   {len(values)}"
        )
    print_answer_statements(user_ids[0])

    t = time.perf_counter()
    synthetic = histories(args.fit_reviews, true=memory(growth=2.6), seed=5)
    made = time.perf_counter() - t
    fit = fitting.fit(synthetic)
    print(
        f"\noptimizer: {fit.reviews:,} synthetic reviews of {len(synthetic):,} cards "
        f"(generated in {made:.1f} s), fitted in {fit.seconds:.2f} s "
        f"({fit.train_items:,} items to fit, {fit.test_items:,} held out)"
    )
    print(
        f"  held-out log loss: fit {fit.log_loss:.4f}, defaults {fit.default_log_loss:.4f}; "
        f"RMSE (bins): fit {fit.rmse:.4f}, defaults {fit.default_rmse:.4f}; "
        f"adopted: {fit.adopted}"
    )


if __name__ == "__main__":
    main()
