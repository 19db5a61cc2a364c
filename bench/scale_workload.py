"""The scale benchmark's work at one size (bench/bench_scale.py runs it in a process of its
own): seeds in bulk SQL, times the requests, EXPLAINs the learner-facing ones, and awards a new
achievement retroactively."""

from __future__ import annotations

import argparse
import math
import time

AWARDS_PER_LEARNER = 30
DAYS = 60
PERIODS = ("week", "month", "all")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


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

        from bench import scale_leagues

        started = time.monotonic()
        self.step("migrate (s)", call_command, "migrate", verbosity=0)
        self.step("load curriculum (s)", call_command, "load_curriculum", "content/", verbosity=0)
        self.step("seed (s)", self.seed)
        self.step("seed leagues (s)", scale_leagues.seed, self)
        self.step("vacuum analyze (s)", self.sql, "VACUUM ANALYZE", autocommit=True)
        from progress import boards

        counts = self.step("leaderboards rebuild (s)", boards.rebuild)
        self.log(f"boards: {counts}")
        self.result["facts"]["leaderboard Redis memory (MB)"] = self.redis_memory_mb()
        self.result["facts"]["generation in all (s)"] = round(time.monotonic() - started, 1)
        self.time_requests()
        scale_leagues.measure(self)
        if not self.args.no_retroactive:
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
                    "author": f"{first} + (g::bigint * 7919) %% {n}",
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
                    "user": f"{first} + (g::bigint * 104729) %% {n}",
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
