#!/usr/bin/env python
"""Time of the admin's "how each lesson is doing" pages on 100,000 learners.

    .venv/bin/python bench/bench_analytics.py [--learners 100000] [--rounds 5] [--reseed]

Against PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/lp_bench_analytics;
created if missing): migrates, loads the curriculum (94 lessons), gives 8 of its lessons an
exercise, then seeds in bulk SQL (INSERT ... SELECT over generate_series, no per-row Python):

- `--learners` learners, each with a start date in the last 180 days and a furthest lesson
  drawn from a long-tailed distribution (most stop early, a few finish: about 11 lessons each
  on average); they complete the lessons up to it in order, 4% skipped, a few hours apart;
- for each exercise a learner reached: 1 to 3 graded submissions, the last passing for 95% of
  them, with per-cell feedback (3 rows x 3 columns) whose wrong cells depend on the column
  (n_heads is the hardest);
- 3,000 issue reports, a third still open.

Then, in-process through Django's test client signed in as a superuser (DEBUG off, the
project's settings; Redis as the cache when REDIS_URL is set, as deployed): prints the quest
page's time computed (`?refresh=1`, the figures' cache bypassed: "cold") and served from the
cache ("cached"), the same for one lesson's page, and `/healthz` through the same stack, each
the median of `--rounds`. The seed is kept: later runs reuse it unless `--reseed`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_bench_analytics"
LEARNER_EMAIL = "bench-learner-{}@example.com"
ADMIN_EMAIL = "bench-analytics-admin@example.com"
EXERCISE_EVERY = 12  # lessons 6, 18, 30, ... get an exercise
COLUMNS = (
    ("d_model", "d_model", 0.08),
    ("n_layers", "n_layers", 0.15),
    ("n_heads", "n_heads", 0.3),
)
REPORTS = 3_000


def configure(database_url: str, redis_url: str | None) -> None:
    from bench.postgres import in_process_environment

    os.environ.update(
        in_process_environment(DATABASE_URL=database_url, CACHE_KEY_PREFIX="bench-analytics")
    )
    os.environ.pop("ENV_FILE", None)
    if redis_url:
        os.environ["REDIS_URL"] = redis_url
    else:
        os.environ.pop("REDIS_URL", None)


def prepare_content():
    from django.conf import settings
    from django.core.management import call_command

    from exercises.models import Exercise
    from lessons.models import Quest

    call_command("migrate", verbosity=0)
    quest = Quest.objects.filter(slug=settings.DEMO_QUEST_SLUG).first()
    if quest is None or quest.lessons.count() < 94:
        call_command("load_curriculum", str(ROOT / "content"), verbosity=0)
        quest = Quest.objects.get(slug=settings.DEMO_QUEST_SLUG)
    lessons = list(quest.lessons.order_by("position", "id"))
    for lesson in lessons[EXERCISE_EVERY // 2 :: EXERCISE_EVERY]:
        if not Exercise.objects.filter(lesson=lesson).exists():
            exercise = Exercise.objects.create(
                lesson=lesson,
                slug=f"bench-{lesson.slug}",
                title=f"Tabulate three models ({lesson.title})",
                prompt="Tabulate d_model, n_layers and n_heads of three models.",
            )
            for position, (name, field, _) in enumerate(COLUMNS, start=1):
                exercise.columns.create(position=position, name=name, reference_field=field)
    return quest, lessons


def seed(*, quest_id: int, learners: int) -> float:
    """Bulk-insert learners, completions, submissions and reports; return the seconds taken."""
    from django.db import connection, transaction

    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit = off")
        print(f"seeding {learners:,} learners ...", flush=True)
        cursor.execute(
            """
            INSERT INTO accounts_user (password, is_superuser, email, display_name, time_zone,
                reply_notifications, email_notifications, show_on_leaderboard, is_staff,
                is_active, date_joined, public_handle, display_name_key)
            SELECT '!', false, replace(%s, '{}', n::text), 'Learner ' || n, 'UTC',
                   true, false, true, false, true, now() - random() * interval '200 days',
                   'learner-' || n, 'learner ' || n
            FROM generate_series(1, %s) AS n
            """,
            [LEARNER_EMAIL, learners],
        )
        # Each learner: a start, a furthest lesson (long tail: -ln(U) * 11, capped at the
        # quest's length), a pace; lessons up to the furthest completed in order, 4% skipped.
        cursor.execute(
            """
            CREATE TEMP TABLE bench_learner AS
            SELECT id AS user_id,
                   now() - interval '1 day' - random() * interval '179 days' AS started,
                   LEAST(94, 1 + floor(-ln(1 - random()) * 11))::int AS furthest,
                   0.5 + random() * 4 AS hours_per_lesson
            FROM accounts_user WHERE email LIKE 'bench-learner-%%'
            """
        )
        cursor.execute(
            """
            CREATE TEMP TABLE bench_lesson AS
            SELECT id AS lesson_id, row_number() OVER (ORDER BY position, id)::int AS rank
            FROM lessons_lesson WHERE quest_id = %s
            """,
            [quest_id],
        )
        cursor.execute(
            """
            INSERT INTO progress_lessoncompletion (user_id, lesson_id, completed_at, device_id,
                seq, created_at)
            SELECT b.user_id, l.lesson_id,
                   LEAST(now(), b.started + l.rank * b.hours_per_lesson * interval '1 hour'),
                   '', 0, now()
            FROM bench_learner b JOIN bench_lesson l ON l.rank <= b.furthest
            WHERE l.rank = b.furthest OR random() > 0.04
            """
        )
        completions = cursor.rowcount
        print(f"  {completions:,} completions", flush=True)
        cells = ", ".join(
            "jsonb_build_object('column', %s::text, 'verdict', CASE WHEN random() < %s::float8 "
            "* (CASE WHEN a.attempt = a.needed THEN 0.3 ELSE 1 END) THEN "
            "(ARRAY['incorrect','incorrect','missing','unparseable'])[1 + floor(random() * 4)::int]"
            " ELSE 'correct' END)"
            for _ in COLUMNS
        )
        cell_params: list = []
        for name, _, wrong in COLUMNS:
            cell_params += [name, wrong]
        row = (
            "jsonb_build_object('row', r, 'name', 'GPT-2', 'model', "
            "(ARRAY['GPT-2','BERT-base','Llama-3-8B'])[r], 'duplicate', false, "
            f"'cells', jsonb_build_array({cells}))"
        )
        # attempts: the attempt that passes (needed) is 1 (55%), 2 (30%), 3 (10%), never (5%).
        cursor.execute(
            f"""
            INSERT INTO exercises_submission (exercise_id, user_id, format, content, notes,
                status, attempts, score, passed, xp_awarded, summary, feedback, created_at,
                enqueued_at, grading_started_at, graded_at)
            SELECT a.exercise_id, a.user_id, 'csv', 'model,d_model,n_layers,n_heads', '',
                   'graded', 1, CASE WHEN a.attempt = a.needed THEN 0.9 ELSE 0.4 END,
                   a.attempt = a.needed, 0, '',
                   jsonb_build_object('rows', (SELECT jsonb_agg({row}) FROM generate_series(1, 3) r)),
                   a.at, a.at, a.at, a.at
            FROM (
                SELECT e.id AS exercise_id, b.user_id, t.attempt, p.needed,
                       LEAST(now(), b.started + l.rank * b.hours_per_lesson * interval '1 hour'
                             - interval '30 minutes'
                             + t.attempt * random() * interval '25 minutes') AS at
                FROM exercises_exercise e
                JOIN bench_lesson l ON l.lesson_id = e.lesson_id
                JOIN bench_learner b ON b.furthest >= l.rank
                CROSS JOIN LATERAL (SELECT CASE WHEN u < 0.55 THEN 1 WHEN u < 0.85 THEN 2
                                          WHEN u < 0.95 THEN 3 ELSE 4 END AS needed
                                    FROM (SELECT random() + b.user_id * 0 AS u) AS draw) AS p
                JOIN generate_series(1, 3) AS t(attempt) ON t.attempt <= LEAST(p.needed, 3)
            ) AS a
            """,
            cell_params,
        )
        print(f"  {cursor.rowcount:,} graded submissions", flush=True)
        cursor.execute(
            """
            INSERT INTO community_issuereport (lesson_id, reporter_id, contact_email, kind,
                message, block_id, block_position, status, assignee_id, internal_note,
                created_at, updated_at, resolved_at, answer)
            SELECT l.lesson_id, NULL, '', (ARRAY['typo','incorrect','broken_link','unclear',
                   'other'])[1 + floor(random() * 5)::int], 'Something is off here.', NULL,
                   NULL, s.status, NULL, '', s.at, s.at,
                   CASE WHEN s.status IN ('resolved', 'rejected') THEN s.at END, ''
            FROM (SELECT n, (ARRAY['new','triaged','resolved','rejected','resolved','rejected'])
                         [1 + n %% 6] AS status, now() - random() * interval '180 days' AS at,
                         1 + floor(random() * random() * 94)::int AS rank
                  FROM generate_series(1, %s) AS n) AS s
            JOIN bench_lesson l ON l.rank = s.rank
            """,
            [REPORTS],
        )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return time.perf_counter() - started


def timed(client, url: str, rounds: int, *, clear=None) -> float:
    times = []
    for _ in range(rounds):
        if clear:
            clear()
        started = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reseed", action="store_true", help="drop the seeded learners first")
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL"),
        help="the cache, as deployed (default REDIS_URL; none: local memory)",
    )
    args = parser.parse_args()
    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    from bench.postgres import ensure_database

    ensure_database(database_url)
    configure(database_url, args.redis_url)
    import django

    django.setup()
    from django.db import connection

    from accounts.models import User

    quest, lessons = prepare_content()
    seeded = User.objects.filter(email__startswith="bench-learner-").count()
    if args.reseed and seeded:
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM exercises_submission")
            cursor.execute("DELETE FROM progress_lessoncompletion")
            cursor.execute("DELETE FROM community_issuereport")
            cursor.execute("DELETE FROM accounts_user WHERE email LIKE 'bench-learner-%%'")
        seeded = 0
    if seeded == 0:
        seconds = seed(quest_id=quest.id, learners=args.learners)
        print(f"seed: {args.learners:,} learners in {seconds:.1f} s")
    else:
        print(f"seed: reusing {seeded:,} learners (--reseed to start again)")
    with connection.cursor() as cursor:
        for table in ("progress_lessoncompletion", "exercises_submission", "community_issuereport"):
            cursor.execute(f"SELECT COUNT(*) FROM {table}")
            print(f"  {table}: {cursor.fetchone()[0]:,} rows")

    # Pages render static URLs; production's manifest storage would need a collectstatic.
    from django.conf import settings
    from django.test.utils import override_settings

    plain_static = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=plain_static):
        measure(quest=quest, lessons=lessons, rounds=args.rounds, redis=bool(args.redis_url))


def measure(*, quest, lessons, rounds: int, redis: bool) -> None:
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from accounts.models import User

    admin = User.objects.filter(email=ADMIN_EMAIL).first() or User.objects.create_superuser(
        ADMIN_EMAIL, uuid.uuid4().hex
    )
    client = Client()
    client.force_login(admin)
    quest_url = reverse("admin:insights_questanalytics_quest", args=[quest.id])
    lesson = lessons[EXERCISE_EVERY // 2]
    lesson_url = reverse("admin:insights_questanalytics_lesson", args=[lesson.id])
    client.get("/healthz")
    client.get(quest_url)  # warm the process: templates, the session, the user

    def forget_figures() -> None:
        cache.delete_many([f"insights:quest:{quest.id}", f"insights:lesson:{lesson.id}"], version=1)

    print(f"cache: {'Redis' if redis else 'local memory'}; median of {rounds} rounds")
    figures = {
        "quest page, cold (figures computed)": timed(
            client, quest_url, rounds, clear=forget_figures
        ),
        "quest page, cached": timed(client, quest_url, rounds),
        "lesson page, cold (figures computed)": timed(
            client, lesson_url, rounds, clear=forget_figures
        ),
        "lesson page, cached": timed(client, lesson_url, rounds),
        "/healthz (same stack)": timed(client, "/healthz", rounds),
    }
    for name, seconds in figures.items():
        print(f"  {name:<40} {seconds * 1000:8.1f} ms")
    print_parts(quest_id=quest.id, rounds=rounds)
    load = os.getloadavg()[0]
    print(f"load average while measuring: {load:.1f} on {os.cpu_count()} CPUs")


def print_parts(*, quest_id: int, rounds: int) -> None:
    """Each aggregate of a computed quest page on its own (median of `rounds`)."""
    from bench import orm_alternatives
    from community import selectors as community
    from exercises import selectors as exercises
    from insights.selectors import _since
    from lessons.models import Lesson
    from progress import selectors as progress

    lesson_ids = list(
        Lesson.objects.filter(quest_id=quest_id)
        .order_by("position", "id")
        .values_list("id", flat=True)
    )
    exercise_ids = [e["id"] for e in exercises.exercises_with_columns(lesson_ids=lesson_ids)]
    since = _since(time_now())
    parts = {
        "completions per lesson": (progress.completion_counts, {"lesson_ids": lesson_ids}),
        "where learners stop": (progress.furthest_lesson_counts, {"quest_id": quest_id}),
        "completions per week": (
            progress.completions_by_week,
            {"lesson_ids": lesson_ids, "since": since},
        ),
        "time to pass": (exercises.time_to_pass, {"exercise_ids": exercise_ids}),
        "wrong cells per column": (exercises.column_error_rates, {"exercise_ids": exercise_ids}),
        "open reports": (community.open_report_counts, {"lesson_ids": lesson_ids}),
    }
    # Where the product keeps SQL text, the ORM's version of the same read beside it.
    print(f"the computed figures, part by part:{'':<14} {'product':>8} {'ORM':>8}")
    for name, (compute, arguments) in parts.items():
        alternative = orm_alternatives.BY_PART.get(name)
        if alternative is not None:
            assert _rounded(alternative(**arguments)) == _rounded(compute(**arguments)), name
        figures = [
            f"{_median_ms(function, arguments, rounds):8.1f} ms"
            for function in (compute, alternative)
            if function is not None
        ]
        print(f"  {name:<40} {' '.join(figures)}")


def _median_ms(function, arguments: dict, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        function(**arguments)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def _rounded(value):
    """`value` with its floats rounded to a millisecond (a median is an average of two)."""
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    return round(value, 3) if isinstance(value, float) else value


def time_now():
    from django.utils import timezone

    return timezone.now()


if __name__ == "__main__":
    main()
