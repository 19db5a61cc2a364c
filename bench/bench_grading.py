#!/usr/bin/env python
"""How fast tables are graded: in-process, and end to end through one real Celery worker.

    .venv/bin/python bench/bench_grading.py [--tables 3000] [--tasks 500] [--rounds 5]
                                            [--first-pass-share 0.4] [--in-process-only]

In-process (no database): parses and grades `--tables` typical submissions (3 to 10 rows of
known and unknown models, the five columns of the d_model exercise, headers and numbers
spelled the many ways learners write them, one in six cells wrong) in CSV, TSV, Markdown and
JSON, and prints tables graded per second and the CPU time per table (parse + grade, and
grade alone).

End to end: against PostgreSQL (DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/lp_bench_grading, created if missing, migrated) and Redis
(REDIS_URL, default redis://127.0.0.1:6379/0), twice (the project settings, then
GRADING_BATCH_SIZE=1), each time one `celery worker` (prefork, concurrency BENCH_CONCURRENCY,
default 1, DEBUG off, a private queue), in alternating rounds: VACUUM ANALYZE, store `--tasks`
passing submissions and publish their grading tasks (through
`exercises.services.queueing.enqueue_grading`, the production path), then `--tasks` no-op
tasks; each round followed by a marker task, and lasting from the first publish until the
marker ran. Of each round's submissions, `--first-pass-share` are first passes of learners
created for that round (one each: real learners stop submitting once they pass), the rest
passes of learners who passed before, shuffled together: every round has the same mix.
Prints tasks per second of each (median of the rounds), their ratio (every round's, and their
median, target >= 0.5), the SQL statements of a first pass and of a later pass, and the CPU
time per task of each process involved.
The no-op and marker tasks live in this module, which only the bench worker imports (-I).
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

from celery import shared_task

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.grading_tables import SPEC, bench_in_process, typical_table  # noqa: E402

CONCURRENCY = int(os.environ.get("BENCH_CONCURRENCY", "1"))
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/lp_bench_grading"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# Whose CPU time the end-to-end rounds report (see cpu_seconds_by_process).
ROLES = (
    "worker main",
    "worker pool",
    "postgres sessions",
    "postgres background",
    "redis",
    "publisher",
    "other",
)
FIRST_PASS_SHARE = 0.4


# --- Tasks the bench worker runs next to the real ones --------------------------------------


@shared_task(name="bench.noop", acks_late=True)
def noop(index: int) -> None:
    """Nothing: the cost of a task's round trip through broker and worker."""


@shared_task(name="bench.mark", acks_late=True)
def mark(key: str) -> None:
    """Record that every task published before this one has run (one worker, one queue)."""
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.REDIS_URL)
    client.lpush(key, time.time())
    client.expire(key, 600)


# --- End to end ------------------------------------------------------------------------------


def bench_env(
    database_url: str, redis_url: str, queue: str, *, settings_module: str
) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": settings_module,
        "DEBUG": "0",
        "TESTING": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-only-" + uuid.uuid4().hex,
        "CACHE_KEY_PREFIX": f"bench-{queue}",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "EMAIL_URL": "dummymail://",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.pop("ENV_FILE", None)
    return env


def start_worker(env: dict[str, str], queue: str) -> subprocess.Popen:
    command = [
        sys.executable, "-m", "celery", "-A", "learning_platform", "worker",
        "--pool=prefork", f"--concurrency={CONCURRENCY}", "-Q", queue,
        f"--loglevel={os.environ.get('BENCH_WORKER_LOGLEVEL', 'WARNING')}",
        "-I", "bench.bench_grading", "--without-gossip", "--without-mingle",
        "--without-heartbeat", "-n", f"{queue}@%h",
    ]  # fmt: skip
    return subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True)


def wait_for_worker(app, queue: str, process: subprocess.Popen, timeout: float = 60) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the bench worker exited at start-up")
        if app.control.ping(destination=[f"{queue}@{socket.gethostname()}"], timeout=0.5):
            return
    raise SystemExit(f"the bench worker did not start in {timeout} s")


def cpu_seconds_by_process(worker_pid: int) -> dict[int, tuple[str, float]]:
    """pid -> (role, CPU seconds used so far) of the processes on this machine; the roles:
    the worker's main process, its pool processes, PostgreSQL, Redis, this publisher."""
    ticks = os.sysconf("SC_CLK_TCK")
    processes: dict[int, tuple[str, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        pid, ppid = int(entry.name), int(fields[1])
        if pid == worker_pid:
            role = "worker main"
        elif ppid == worker_pid:
            role = "worker pool"
        elif pid == os.getpid():
            role = "publisher"
        elif name.startswith("postgres"):
            # A session's process title names its client's address; background ones don't.
            title = (entry / "cmdline").read_bytes().decode(errors="replace")
            role = "postgres sessions" if "127.0.0.1(" in title else "postgres background"
        elif name.startswith("redis"):
            role = "redis"
        else:
            role = "other"
        processes[pid] = (role, (int(fields[11]) + int(fields[12])) / ticks)
    return processes


def run_round(
    publish, count: int, client, queue: str, worker_pid: int = 0, cpu: dict | None = None
) -> float:
    """Tasks per second of one round; adds each role's CPU milliseconds per task to `cpu`."""
    key = f"bench-mark-{queue}-{uuid.uuid4().hex}"
    before = cpu_seconds_by_process(worker_pid) if cpu is not None else {}
    started = time.perf_counter()
    for index in range(count):
        publish(index)
    mark.apply_async(args=[key], queue=queue)
    # Blocks until the marker ran: the publisher uses no CPU while the worker runs. (Waits of
    # a second at a time, under the client's socket timeout.)
    deadline = time.monotonic() + 600
    while client.blpop([key], timeout=1) is None:
        if time.monotonic() > deadline:
            raise SystemExit("the bench worker did not finish a round in 600 s")
    elapsed = time.perf_counter() - started
    if cpu is not None:
        # Processes that ended during the round are left out (a new one counts from zero).
        used: dict[str, float] = {}
        for pid, (role, seconds) in cpu_seconds_by_process(worker_pid).items():
            used[role] = used.get(role, 0.0) + seconds - before.get(pid, (role, 0.0))[1]
        for role, seconds in used.items():
            cpu.setdefault(role, []).append(seconds / count * 1e3)
    return count / elapsed


def prepare_exercise():
    """The bench exercise, its old submissions deleted."""
    from django.core.management import call_command

    from exercises.models import Submission
    from exercises.services.content import upsert_exercise
    from lessons.models import Lesson, Quest

    call_command("migrate", verbosity=0)
    quest, _ = Quest.objects.get_or_create(slug="bench-grading", defaults={"title": "Bench"})
    lesson, _ = Lesson.objects.get_or_create(
        slug="bench-grading-lesson", defaults={"quest": quest, "title": "Bench", "published": True}
    )
    exercise, _ = upsert_exercise(lesson=lesson, spec={**SPEC, "slug": "bench-grading"})
    Submission.objects.filter(exercise=exercise).delete()
    return exercise


def new_learners(count: int) -> list:
    """`count` learners who never submitted anything (their first pass pays XP and evaluates
    achievements)."""
    from accounts.models import User

    run = uuid.uuid4().hex[:12]
    return User.objects.bulk_create(
        User(email=f"bench-grading-{run}-{i}@example.com") for i in range(count)
    )


def passed_learners(exercise, count: int) -> list:
    """`count` new learners who passed the exercise already (a graded passing submission each,
    stored directly: their next pass is a later one, which pays nothing)."""
    from django.utils import timezone

    from exercises.models import Submission

    learners = new_learners(count)
    now = timezone.now()
    Submission.objects.bulk_create(
        Submission(
            exercise=exercise,
            user=learner,
            format="csv",
            content="passed before the bench",
            status="graded",
            score=1,
            passed=True,
            attempts=1,
            graded_at=now,
        )
        for learner in learners
    )
    return learners


def make_submissions(
    exercise, learners: list, count: int, rng: random.Random, *, correct: bool = False
) -> list[int]:
    """`count` stored, queued submissions, just submitted, each by the next of `learners`
    (cycling); `correct`: every table passes (else about 3 in 4)."""
    from django.utils import timezone

    from exercises.catalogue_seed import reference_rows
    from exercises.models import Submission

    references = reference_rows()
    made = Submission.objects.bulk_create(
        Submission(
            exercise=exercise,
            user=learners[index % len(learners)],
            format=fmt,
            content=content,
            enqueued_at=timezone.now(),
        )
        for index, (fmt, content) in enumerate(
            typical_table(rng, references, correct=correct) for _ in range(count)
        )
    )
    return [s.id for s in made]


def make_round(exercise, veterans: list, count: int, share: float, rng: random.Random) -> list[int]:
    """A round's submissions: round(count * share) first passes of learners created now, the
    rest passes of `veterans` (who passed before), stored in a shuffled order."""
    firsts = round(count * share)
    first = make_submissions(exercise, new_learners(firsts), firsts, rng, correct=True)
    later = make_submissions(exercise, veterans, count - firsts, rng, correct=True)
    ids = first + later
    rng.shuffle(ids)
    return ids


def publisher(ids: list[int]):
    """publish(i) publishes the i-th of `ids` as submitting does (named by its enqueued_at)."""
    from exercises.models import Submission
    from exercises.services.queueing import enqueue_grading

    stored = dict(Submission.objects.filter(id__in=ids).values_list("id", "enqueued_at"))
    return lambda i: enqueue_grading(submission_id=ids[i], enqueued_at=stored[ids[i]])


def vacuum() -> None:
    """What autovacuum does in production (this machine's PostgreSQL runs without it): without
    it, every grade's dead row versions pile up, run after run, and each round is slower than
    the last."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def queries_per_grade(submission_id: int) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from exercises.services.pipeline import grade_submission

    with CaptureQueriesContext(connection) as captured:
        grade_submission(submission_id=submission_id)
    return len(captured)


def queries_of_first_and_later_pass(exercise, veterans: list, rng: random.Random) -> tuple:
    """SQL statements of one first pass (a new learner) and one later pass, graded in-process
    with the caches warm (a first pass graded before each, to warm them)."""
    [warm] = make_submissions(exercise, new_learners(1), 1, rng, correct=True)
    queries_per_grade(warm)
    [first] = make_submissions(exercise, new_learners(1), 1, rng, correct=True)
    [later] = make_submissions(exercise, veterans[:1], 1, rng, correct=True)
    return queries_per_grade(first), queries_per_grade(later)


def bench_end_to_end(args) -> list[dict]:
    import django

    database_url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    redis_url = os.environ.get("REDIS_URL", DEFAULT_REDIS_URL)
    from bench.postgres import ensure_database

    ensure_database(database_url)
    queue = f"bench-grading-{os.getpid()}"
    env = bench_env(database_url, redis_url, queue, settings_module="learning_platform.settings")
    os.environ.update({k: v for k, v in env.items() if k != "PYTHONPATH"})
    sys.path.insert(0, str(ROOT))
    django.setup()
    from learning_platform.celery import app

    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    project = bench_env(
        database_url, redis_url, queue, settings_module="learning_platform.settings"
    )
    configurations = [
        ("project settings", project),
        # The same without batches: every submission graded by its own task.
        ("GRADING_BATCH_SIZE=1", {**project, "GRADING_BATCH_SIZE": "1"}),
    ]
    return [measure(args, label=label, env=env, queue=queue) for label, env in configurations]


def measure(
    args, *, label: str, env: dict[str, str], queue: str, worker: subprocess.Popen | None = None
) -> dict:
    """One worker with `env` (or the running `worker`, left running: bench/stack.py's);
    alternating rounds of grading and no-op tasks."""
    import redis
    from django.db.models import Count, F

    from exercises.models import Submission
    from exercises.services.grading_cache import current_catalogue
    from exercises.services.pipeline import NOTIFY_WHEN_SLOWER_THAN
    from learning_platform.celery import app

    share = getattr(args, "first_pass_share", FIRST_PASS_SHARE)
    exercise = prepare_exercise()
    veterans = passed_learners(exercise, 200)
    rng = random.Random(7)
    current_catalogue()
    first_queries, later_queries = queries_of_first_and_later_pass(exercise, veterans, rng)
    client = redis.Redis.from_url(env["REDIS_URL"])
    own_worker = worker is None
    if own_worker:
        worker = start_worker(env, queue)
    try:
        wait_for_worker(app, queue, worker)
        # Warm up both task paths (imports, connections) before measuring.
        run_round(lambda i: noop.apply_async(args=[i], queue=queue), 50, client, queue)
        warm = make_round(exercise, veterans, 50, share, rng)
        run_round(publisher(warm), 50, client, queue)
        grading_rates, noop_rates = [], []
        grading_cpu: dict[str, list[float]] = {}
        noop_cpu: dict[str, list[float]] = {}
        batches = []
        for _ in range(args.rounds):
            vacuum()
            # Submitted just before their round, as a burst of learners would.
            batch = make_round(exercise, veterans, args.tasks, share, rng)
            batches.append(batch)
            grading_rates.append(
                run_round(publisher(batch), len(batch), client, queue, worker.pid,
                          grading_cpu)
            )  # fmt: skip
            noop_rates.append(
                run_round(lambda i: noop.apply_async(args=[i], queue=queue), args.tasks,
                          client, queue, worker.pid, noop_cpu)
            )  # fmt: skip
        graded = Submission.objects.filter(id__in=[i for b in batches for i in b])
        statuses = dict(graded.values_list("status").annotate(n=Count("id")).order_by())
        slow = graded.filter(graded_at__gt=F("created_at") + NOTIFY_WHEN_SLOWER_THAN).count()
        passed = graded.filter(passed=True).count()
        paid = graded.filter(xp_awarded__gt=0).count()
        waits = sorted(
            (row[0] - row[1]).total_seconds() * 1e3
            for row in graded.values_list("graded_at", "created_at")
            if row[0] is not None
        )
    finally:
        if own_worker:
            os.killpg(worker.pid, 15)
            worker.wait(timeout=30)
            client.delete(queue)
    grading_rate = statistics.median(grading_rates)
    noop_rate = statistics.median(noop_rates)
    return {
        "label": label,
        "tasks": args.tasks,
        "rounds": args.rounds,
        "grading_per_second": grading_rate,
        "noop_per_second": noop_rate,
        # Each grading round against the no-op round right after it, so a machine that speeds
        # up or slows down during the run moves both sides of a ratio alike.
        "ratio": statistics.median(g / n for g, n in zip(grading_rates, noop_rates, strict=True)),
        "round_ratios": [g / n for g, n in zip(grading_rates, noop_rates, strict=True)],
        "grading_rounds": grading_rates,
        "noop_rounds": noop_rates,
        "statuses": statuses,
        "passed_share": passed / sum(statuses.values()),
        "first_passes": paid,
        "first_pass_share": share,
        "queries_per_grade": first_queries,
        "queries_per_first_pass": first_queries,
        "queries_per_later_pass": later_queries,
        # From stored to graded, in a burst of `tasks` submissions: mostly queueing time.
        "wait_ms_p50": waits[len(waits) // 2] if waits else 0.0,
        "wait_ms_p99": waits[min(len(waits) - 1, int(len(waits) * 0.99))] if waits else 0.0,
        "notified": slow,
        "cpu_ms_per_task": {
            role: (
                statistics.median(grading_cpu.get(role, [0])),
                statistics.median(noop_cpu.get(role, [0])),
            )
            for role in ROLES
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=3000)
    parser.add_argument("--tasks", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--first-pass-share",
        type=float,
        default=FIRST_PASS_SHARE,
        help="share of each round's submissions that are first passes of new learners",
    )
    parser.add_argument("--in-process-only", action="store_true")
    args = parser.parse_args()
    if not 0 <= args.first_pass_share <= 1:
        parser.error("--first-pass-share is a share, between 0 and 1")

    result = bench_in_process(args.tables)
    print(
        f"In-process: {result['tables']} tables of {result['rows_mean']:.1f} rows on average "
        f"({result['passed_share']:.0%} passing)\n"
        f"  {result['per_second']:,.0f} tables graded per second (parse + grade, one core)\n"
        f"  CPU per table: {result['cpu_us_parse_and_grade']:.0f} µs parse + grade, "
        f"{result['cpu_us_grade_only']:.0f} µs grade alone\n"
        "  CPU per table by format (parse + grade): "
        + ", ".join(f"{f} {us:.0f} µs" for f, us in result["cpu_us_by_format"].items())
    )
    if args.in_process_only:
        return
    for e2e in bench_end_to_end(args):
        print(
            f"End to end ({e2e['label']}): one prefork worker (concurrency {CONCURRENCY}) on Redis, "
            f"PostgreSQL, {e2e['tasks']} tasks x {e2e['rounds']} rounds (median), "
            f"{e2e['first_pass_share']:.0%} first passes of new learners per round:\n"
            f"  grading: {e2e['grading_per_second']:,.0f} submissions graded per second "
            f"(rounds: {', '.join(f'{r:,.0f}' for r in e2e['grading_rounds'])})\n"
            f"    {e2e['statuses']}, {e2e['passed_share']:.0%} passed, "
            f"{e2e['first_passes']} first passes paid XP, "
            f"{e2e['notified']} waited over 5 s (notified)\n"
            f"  no-op:   {e2e['noop_per_second']:,.0f} tasks per second "
            f"(rounds: {', '.join(f'{r:,.0f}' for r in e2e['noop_rounds'])})\n"
            f"  ratio grading / no-op: {e2e['ratio']:.2f} (target >= 0.5; median of the rounds: "
            f"{', '.join(f'{r:.2f}' for r in e2e['round_ratios'])})\n"
            f"  SQL statements per first pass: {e2e['queries_per_first_pass']}, per later "
            f"pass: {e2e['queries_per_later_pass']} (graded in-process, caches warm)\n"
            "  CPU ms per task (median of the rounds), grading / no-op: "
            + ", ".join(
                f"{role} {g:.2f} / {n:.2f}" for role, (g, n) in e2e["cpu_ms_per_task"].items()
            )
        )


if __name__ == "__main__":
    main()
