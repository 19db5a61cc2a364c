#!/usr/bin/env python
"""What requests cost as learners grow: the same requests at 100 and at 100,000 learners.

    bench/scale                                  # 100 and 100,000 learners, one table
    bench/scale --learners 200 --requests 20     # a smoke run (CI)

For each size, in its own process and its own PostgreSQL database (`lp_scale_bench_<n>`,
dropped at the end unless --keep): migrates, loads `content/`, then seeds in bulk SQL
(INSERT ... SELECT over generate_series, no API): n learners (5% opted out of the
leaderboard), 30 lesson awards each spread over 60 days (3,000,000 at 100,000), their stats,
n/2 completions with activity days and streaks, n/5 comments (a fifth on the busiest lesson),
n/20 submissions, the unlocks of the seeded XP and streak achievements they qualify for; then
VACUUM ANALYZE and a rebuild of the Redis leaderboards (db 7 by default, keys under a prefix of
their own, deleted at the end).

Then it times, through the Django test client (in-process, DEBUG off, the project's middleware,
PROGRESS_SUMMARY_CACHE off so /me/progress costs its queries): the leaderboard of each period
signed out and signed in (p50, p99 over --requests), the viewer's rank alone (one Redis round
trip), the leaderboard answered from SQL (the rollup fallback, fewer requests), /me/progress,
/achievements/, a lesson, the comments of the busiest lesson, the admin lists of learners, XP
awards and submissions (--admin-requests), and the retroactive award of a new achievement that
every learner qualifies for, by the task's batches run one after the other (one worker). It
EXPLAINs every query of the learner-facing requests and lists sequential scans of the tables
that grow with learners. Prints one table with every size, and which targets hold.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AWARDS_PER_LEARNER = 30
DAYS = 60
PERIODS = ("week", "month", "all")


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


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def run_one(args: argparse.Namespace) -> None:
    n = args.one
    database = f"{args.database_prefix}_{n}"
    prefix = f"bench-scale-{n}-{uuid.uuid4().hex[:6]}"
    sys.path.insert(0, str(ROOT))
    from bench.postgres import in_process_environment

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
    recreate_database(args.database_host, database)
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
        clean_redis(args.redis_url, prefix)
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database(args.database_host, database)
    Path(args.json).write_text(json.dumps(result))


def _admin_connection(host: str):
    import psycopg

    return psycopg.connect(f"{host}/postgres", autocommit=True)


def recreate_database(host: str, name: str) -> None:
    with _admin_connection(host) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(host: str, name: str) -> None:
    with _admin_connection(host) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def clean_redis(url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"{prefix}*", count=5000))
    for start in range(0, len(keys), 5000):
        client.delete(*keys[start : start + 5000])


class Bench:
    def __init__(self, *, n: int, args: argparse.Namespace, result: dict) -> None:
        self.n, self.args, self.result = n, args, result

    def log(self, message: str) -> None:
        print(f"[{self.n} learners] {message}", flush=True)

    def step(self, label: str, function, *a, **kw):
        started = time.monotonic()
        value = function(*a, **kw)
        seconds = time.monotonic() - started
        self.result["facts"][label] = round(seconds, 1)
        self.log(f"{label}: {seconds:.1f} s")
        return value

    def run(self) -> None:
        from django.core.management import call_command

        self.step("migrate (s)", call_command, "migrate", verbosity=0)
        self.step("load curriculum (s)", call_command, "load_curriculum", "content/", verbosity=0)
        self.step("seed (s)", self.seed)
        self.step("vacuum analyze (s)", self.sql, "VACUUM ANALYZE", autocommit=True)
        from progress import boards

        counts = self.step("leaderboards rebuild (s)", boards.rebuild)
        self.log(f"boards: {counts}")
        self.result["facts"]["leaderboard Redis memory (MB)"] = self.redis_memory_mb()
        self.time_requests()
        self.step("retroactive award (s)", self.retroactive_award)

    def redis_memory_mb(self) -> float:
        import redis
        from django.conf import settings

        client = redis.Redis.from_url(settings.LEADERBOARD_REDIS_URL)
        keys = client.scan_iter(match=settings.LEADERBOARD_KEY_PREFIX + "*", count=1000)
        return round(sum(client.memory_usage(key) or 0 for key in keys) / 1e6, 1)

    # -- seeding, in bulk SQL ----------------------------------------------------------------

    def sql(self, statement: str, params: list | None = None, *, autocommit: bool = False):
        from django.db import connection

        if autocommit:
            import psycopg

            settings = connection.settings_dict
            with psycopg.connect(
                host=settings["HOST"] or "127.0.0.1",
                port=settings["PORT"] or 5432,
                user=settings["USER"],
                dbname=settings["NAME"],
                autocommit=True,
            ) as conn:
                conn.execute(statement)
            return None
        with connection.cursor() as cursor:
            cursor.execute(statement, params or [])
            return cursor.fetchall() if cursor.description else cursor.rowcount

    def insert_select(self, model, exprs: dict[str, str], source: str, params=()) -> int:
        """INSERT INTO model's table SELECT exprs FROM source; other fields take their
        defaults (auto_now(_add) fields: now())."""
        from django.db import connection

        columns, values, defaults = [], [], []
        for field in model._meta.concrete_fields:
            if field.name in exprs:
                columns.append(field.column)
                values.append(exprs[field.name])
            elif field.primary_key:
                continue
            else:
                columns.append(field.column)
                if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
                    values.append("now()")
                else:
                    values.append("%s")
                    defaults.append(field.get_db_prep_save(field.get_default(), connection))
        statement = (
            f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "
            f"SELECT {', '.join(values)} FROM {source}"
        )
        return self.sql(statement, [*defaults, *params])

    def seed(self) -> None:
        from django.contrib.auth.hashers import make_password
        from django.db import transaction

        from accounts.models import User
        from community.models import Comment
        from exercises.models import Submission

        n = self.n
        lessons = "(SELECT array_agg(id ORDER BY id) AS ids, array_agg(xp ORDER BY id) AS xps, count(*)::int AS n FROM lessons_lesson WHERE published) les"
        with transaction.atomic():
            self.insert_select(
                User,
                {
                    "email": "'learner' || g || '@bench.example'",
                    "display_name": "'Learner ' || g",
                    "password": f"'{make_password('bench-scale')}'",
                    "show_on_leaderboard": "g %% 20 <> 0",  # 5% opted out
                    "date_joined": "now() - interval '90 days'",
                },
                "generate_series(1, %s) g",
                [n],
            )
            first, last = self.sql(
                "SELECT min(id), max(id) FROM accounts_user WHERE email LIKE '%%@bench.example'"
            )[0]
        self.first_user, self.last_user = first, last
        step = 10_000
        for start in range(first, last + 1, step):
            with transaction.atomic():
                # 30 distinct lessons each; the amounts vary around the lesson's XP so the
                # boards are not one big tie. The ledger's trigger fills the per-day rollup.
                self.sql(
                    f"""
                    INSERT INTO progress_xpaward
                        (user_id, source_type, source_id, amount, awarded_at, created_at)
                    SELECT u.id, 'lesson', les.ids[((u.id + k) %% les.n) + 1],
                           les.xps[((u.id + k) %% les.n) + 1] + (u.id * 31 + k) %% 17,
                           now() - random() * interval '{DAYS} days', now()
                    FROM accounts_user u, {lessons}, generate_series(0, {AWARDS_PER_LEARNER - 1}) k
                    WHERE u.id BETWEEN %s AND %s
                    """,
                    [start, min(start + step - 1, last)],
                )
        with transaction.atomic():
            self.sql(
                """
                INSERT INTO progress_learnerstats
                    (user_id, xp_total, streak_current, streak_best, last_active_day, sync_seq,
                     updated_at)
                SELECT user_id, SUM(amount), 0, 0, MAX(awarded_at)::date, 0, now()
                FROM progress_xpaward GROUP BY user_id
                """
            )
            # n/2 completions: the first ten lessons of the first n/20 learners, their days
            # active, and streaks.
            with_completions = first + max(1, n // 20) - 1
            self.sql(
                """
                INSERT INTO progress_lessoncompletion
                    (user_id, lesson_id, completed_at, device_id, seq, created_at)
                SELECT user_id, source_id, awarded_at, '', 0, now() FROM (
                    SELECT user_id, source_id, awarded_at,
                           row_number() OVER (PARTITION BY user_id ORDER BY awarded_at) AS nth
                    FROM progress_xpaward WHERE user_id BETWEEN %s AND %s
                ) a WHERE nth <= 10
                """,
                [first, with_completions],
            )
            self.sql(
                """
                INSERT INTO progress_activityday (user_id, day)
                SELECT DISTINCT user_id, completed_at::date FROM progress_lessoncompletion
                """
            )
            self.sql(
                """
                UPDATE progress_learnerstats SET streak_current = 1 + user_id %% 7,
                    streak_best = 3 + user_id %% 11, last_active_day = current_date
                WHERE user_id BETWEEN %s AND %s
                """,
                [first, with_completions],
            )
            busiest = self.sql(
                "SELECT id, slug FROM lessons_lesson WHERE published ORDER BY position, id LIMIT 1"
            )[0]
            self.busiest_slug = busiest[1]
            self.insert_select(
                Comment,
                {
                    "lesson": f"CASE WHEN g %% 5 = 0 THEN {busiest[0]} ELSE les.ids[(g %% les.n) + 1] END",
                    "author": f"{first} + (g * 7919) %% {n}",
                    "body": "'A thought about this lesson, number ' || g",
                    "created_at": f"now() - random() * interval '{DAYS} days'",
                },
                f"generate_series(1, %s) g, {lessons}",
                [max(1, n // 5)],
            )
            self.insert_select(
                Submission,
                {
                    "exercise": "ex.ids[(g %% ex.n) + 1]",
                    "user": f"{first} + (g * 104729) %% {n}",
                    "format": "'csv'",
                    "content": "'model,d_model\nGPT-2,768\n'",
                    "status": "'graded'",
                    "score": "1.0",
                    "passed": "true",
                    "created_at": f"now() - random() * interval '{DAYS} days'",
                    "graded_at": "now()",
                },
                "generate_series(1, %s) g, (SELECT array_agg(id ORDER BY id) AS ids, "
                "count(*)::int AS n FROM exercises_exercise) ex",
                [max(1, n // 20)],
            )
            # What they hold already: the seeded XP and streak achievements they reached.
            self.sql(
                """
                INSERT INTO achievements_achievementunlock (user_id, achievement_id, unlocked_at)
                SELECT s.user_id, a.id, now() FROM progress_learnerstats s
                JOIN achievements_achievement a ON a.is_active AND (
                    (a.rule_kind = 'xp_total' AND s.xp_total >= a.threshold)
                    OR (a.rule_kind = 'streak_days' AND s.streak_current >= a.threshold))
                """
            )
            User.objects.create_superuser(email="admin@bench.example", password="bench-scale")
        counts = {
            table: self.sql(f"SELECT count(*) FROM {table}")[0][0]
            for table in (
                "accounts_user",
                "progress_xpaward",
                "progress_learnerdayxp",
                "progress_lessoncompletion",
                "community_comment",
                "exercises_submission",
                "achievements_achievementunlock",
            )
        }
        self.result["facts"].update({f"rows {k}": v for k, v in counts.items()})
        self.log(f"seeded: {counts}")

    # -- timing ------------------------------------------------------------------------------

    def timed(self, name: str, client, url: str, *, count: int, learner_facing: bool = False):
        for _ in range(3):
            response = client.get(url)
            if response.status_code != 200:
                self.result["errors"].append(f"{name}: {url} answered {response.status_code}")
                return
        times, cpu = [], []
        for _ in range(count):
            started, cpu_started = time.perf_counter(), time.process_time()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - cpu_started) * 1000)
            if response.status_code != 200:
                self.result["errors"].append(f"{name}: {url} answered {response.status_code}")
                return
        row = {"p50": percentile(times, 50), "p99": percentile(times, 99)}
        row.update(cpu=percentile(cpu, 50), learner_facing=learner_facing)
        self.result["rows"][name] = row
        self.log(f"{name}: p50 {row['p50']:.1f} ms, p99 {row['p99']:.1f} ms, CPU {row['cpu']:.1f}")

    def timed_call(self, name: str, function, *, count: int) -> None:
        function()
        times = []
        for _ in range(count):
            started = time.perf_counter()
            function()
            times.append((time.perf_counter() - started) * 1000)
        self.result["rows"][name] = {
            "p50": percentile(times, 50),
            "p99": percentile(times, 99),
            "learner_facing": False,
        }
        self.log(f"{name}: p50 {percentile(times, 50):.2f} ms, p99 {percentile(times, 99):.2f}")

    def time_requests(self) -> None:
        from django.test import Client, override_settings

        from accounts.models import User
        from progress import boards

        count = self.args.requests
        anonymous = Client()
        viewer = User.objects.get(pk=(self.first_user + self.last_user) // 2 | 1)  # visible
        signed_in = Client()
        signed_in.force_login(viewer)
        admin = Client()
        admin.force_login(User.objects.get(email="admin@bench.example"))

        for period in PERIODS:
            url = f"/api/v1/leaderboard?period={period}"
            self.timed(f"leaderboard {period}, signed out", anonymous, url, count=count)
            self.timed(f"leaderboard {period}, signed in", signed_in, url, count=count)
            self.timed_call(
                f"viewer's rank {period} (Redis round trip)",
                lambda period=period: boards.read(period=period, count=1, viewer_id=viewer.pk),
                count=count,
            )
        with override_settings(LEADERBOARD_REDIS=False):
            for period in PERIODS:
                url = f"/api/v1/leaderboard?period={period}"
                self.timed(
                    f"SQL fallback: leaderboard {period}, signed in",
                    signed_in,
                    url,
                    count=self.args.fallback_requests,
                )
        learner_reads = {
            "/me/progress": "/api/v1/me/progress",
            "/achievements/": "/api/v1/achievements/",
            "a lesson": f"/api/v1/lessons/{self.busiest_slug}/",
            "comments of the busiest lesson": f"/api/v1/lessons/{self.busiest_slug}/comments/",
        }
        for label, url in learner_reads.items():
            if label != "/me/progress":
                self.timed(f"{label}, signed out", anonymous, url, count=count, learner_facing=True)
            self.timed(f"{label}, signed in", signed_in, url, count=count, learner_facing=True)
        admin_lists = {
            "admin learners": "/admin/accounts/user/",
            "admin XP awards": "/admin/progress/xpaward/",
            "admin submissions": "/admin/exercises/submission/",
            "admin XP awards, filtered (lessons)": "/admin/progress/xpaward/?source_type__exact=lesson",
            "admin XP awards, search by e-mail": "/admin/progress/xpaward/?q=learner7%40bench.example",
        }
        for label, url in admin_lists.items():
            self.timed(label, admin, url, count=self.args.admin_requests)
        self.explain(
            signed_in,
            [
                *(f"/api/v1/leaderboard?period={p}" for p in PERIODS),
                *learner_reads.values(),
            ],
        )
        self.explain(anonymous, [f"/api/v1/leaderboard?period={p}" for p in PERIODS])

    def explain(self, client, urls: list[str]) -> None:
        """EXPLAIN every SELECT the requests run; note sequential scans of big tables (with
        sequential scans disabled, so a scan left means no index fits)."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from learning_platform.db import (
            TABLES_THAT_GROW_WITH_LEARNERS,
            sequentially_scanned_tables,
        )

        for url in urls:
            with CaptureQueriesContext(connection) as captured:
                client.get(url)
            for query in captured.captured_queries:
                if query["sql"].lstrip().upper().startswith("SELECT"):
                    for table in sequentially_scanned_tables(query["sql"]):
                        if table in TABLES_THAT_GROW_WITH_LEARNERS:
                            self.result["seq_scans"].append(f"{url}: {table}")

    # -- the retroactive award -------------------------------------------------------------

    def retroactive_award(self) -> None:
        from achievements import services
        from achievements.models import Achievement, AchievementUnlock, RuleKind

        achievement = Achievement.objects.create(
            slug="bench-any-xp",
            title="Any XP at all",
            rule_kind=RuleKind.XP_TOTAL,
            threshold=1,
            xp_bonus=5,
        )
        after, batches = 0, 0
        while after is not None:  # what one worker does, task after task
            after = services.award_achievement_to_batch(
                achievement_id=achievement.id, after_user_id=after
            )
            batches += 1
        unlocked = AchievementUnlock.objects.filter(achievement=achievement).count()
        self.result["facts"]["retroactive batches"] = batches
        self.result["facts"]["retroactive unlocks"] = unlocked
        if unlocked < self.n:
            self.result["errors"].append(f"retroactive award unlocked {unlocked} of {self.n}")


if __name__ == "__main__":
    sys.exit(main())
