"""Fault-and-soak: learners keep working while the worker is killed and Redis goes away.

    .venv/bin/python bench/soak.py                       # 200 learners, the documented long run
    .venv/bin/python bench/soak.py --learners 30 --seconds 40   # the CI size
    .venv/bin/python bench/soak.py --broker-url amqp://guest:guest@127.0.0.1:5672/VHOST

Starts, all on 127.0.0.1 ports from --port (default 18220):

- two TCP proxies this script controls, in front of the real Redis (--redis-url): one the
  processes use as their cache (CACHE_URL), one as their broker (BROKER_URL; in front of
  RabbitMQ instead with --broker-url amqp://..., on a vhost the soak may fill). Cutting a proxy
  closes its connections and refuses new ones: Redis is unreachable for those processes, while
  the machine's Redis keeps running for everyone else;
- gunicorn (2 workers x 4 threads, production settings) and one Celery worker (prefork, 2),
  on a PostgreSQL database of its own (--database-url, created when missing and emptied).

Then --learners learners, from --threads client threads, complete lessons, sync overlapping
batches from two devices each, submit an exercise, comment and reply to each other, while a
chaos thread kills the worker with SIGKILL twice (a new one starts at once), cuts the cache
proxy for --outage seconds and the broker proxy for --outage seconds, stops the mail server (a
local SMTP sink the soak runs) for --outage seconds, and runs FLUSHDB on the soak's own Redis
database (the one in --redis-url: give the soak a database number of its own; when that
database holds keys that are not the soak's, only the soak's keys are deleted; on RabbitMQ the
soak's queue is purged at the same moment, the broker losing its messages). A few learners
ask for a password reset meanwhile. What beat does (the
sweeps) the script does every few seconds. When the load is over it waits (at most
--drain seconds) for the backlog to settle and prints the invariants; the exit status is 1 when
any breaks:

- every completion once: no (learner, lesson) recorded twice, and every lesson a learner
  completed (by request or by sync) is recorded;
- XP equal to the sum of its sources: each learner's total equals their ledger's sum, and no
  source paid twice;
- every submission graded;
- every reply notified exactly once (to the author it answers), e-mailed at most once (no
  notification in two e-mails, no e-mail sent twice);
- no 500 outside the seconds a component was down (plus a second or two of grace);
- nothing stuck: no task kept unsent, no notification waiting past its digest, no e-mail unsent;
- every reset e-mailed: each password reset asked for reached the mail server, through the
  mail server outage and the FLUSHDB.
- Markdown bombs (one more learner posts and edits them all along): each answered in seconds
  and stored rendered;
- no address squatted: a learner keeps adding other learners' addresses (four owners signed
  up through the API) to their account while the owners open the confirmation e-mails they
  get; each address stays its owner's and each owner signs in (bench/soak_abuse.py);
- hidden comments leave notifications and digests: a moderator hides comments in the admin
  while their digests gather; none is left in a notification or a digest sent after.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench.postgres import database_name, recreate_database  # noqa: E402
from bench.soak_abuse import (  # noqa: E402
    Abuse,
    AdminSession,
    moderate,
    moderation_invariant,
    sign_up_owners,
    squat,
    squatting_invariant,
)
from bench.soak_checks import bomb_invariant, invariants, print_table, settled  # noqa: E402
from bench.soak_learners import Client, Log, bomb, learner_threads  # noqa: E402
from bench.soak_stack import Proxy, SmtpSink, Stack, port_is_free  # noqa: E402
from bench.stack_data import session_token_for  # noqa: E402

# The learners sign in by a session made here (what allauth's app login makes), not through the
# login rate limit 200 times from one address; kept in the database alone, as the soak always made
# them (a cached_db session would also be written to the cache the soak cuts).
SESSIONS_IN_DB = "django.contrib.sessions.backends.db"


# --- The run ---------------------------------------------------------------------------------


def recreate_soak_database(database_url: str) -> None:
    """The soak's own database, dropped and created afresh (never the project's others)."""
    name = database_name(database_url)
    if "soak" not in name:
        raise SystemExit(
            f"refusing to recreate {name!r}: the soak's database name has 'soak' in it"
        )
    recreate_database(database_url)


def sweep() -> None:
    """What beat does: publish kept tasks, re-enqueue stale submissions, send due digests."""
    from exercises.services.queueing import requeue_stale_submissions
    from learning_platform.outbox import send_unsent_tasks
    from notifications.tasks import send_overdue_emails

    for job in (send_unsent_tasks, requeue_stale_submissions, send_overdue_emails.delay):
        try:
            job()
        except Exception as exc:  # a sweep during an outage fails; the next one runs
            print(f"  sweep {getattr(job, '__name__', job)}: {type(exc).__name__}: {exc}")


def flush_redis(redis_url: str, run_id: str) -> None:
    """FLUSHDB on the soak's own Redis database, straight to Redis (not through the proxies).
    When that database holds keys of anything else, only the soak's are deleted (the same loss
    for the soak) rather than someone else's."""
    import redis

    client = redis.Redis.from_url(redis_url)
    # This run's keys and an earlier run's (cache keys outlive a run), and the broker's own.
    ours = ("_kombu.", "unacked", run_id, "soak-")
    keys = list(client.scan_iter(count=1000))
    if all(k.decode("utf-8", "replace").startswith(ours) for k in keys):
        client.flushdb()
    else:
        mine = [k for k in keys if k.decode("utf-8", "replace").startswith(ours)]
        print(f"  chaos: the Redis database is shared; deleting the soak's {len(mine)} keys only")
        if mine:
            client.delete(*mine)


def purge_queue(broker_url: str, queue: str, *, delete: bool = False) -> None:
    """Lose what waits in the soak's RabbitMQ queue, straight on the broker (not through the
    proxy); `delete`: remove the queue and its exchange (when the soak ends)."""
    from kombu import Connection

    with Connection(broker_url) as connection:
        channel = connection.channel()
        if delete:
            channel.queue_delete(queue)
            channel.exchange_delete(queue)
        else:
            print(f"  chaos: {channel.queue_purge(queue)} messages purged from RabbitMQ")


def ask_for_resets(port: int, emails: list[str], log: Log, seconds: float,
                   asked: list[str]) -> None:  # fmt: skip
    """A password reset for each address, spread over the run (across the mail server outage
    and the FLUSHDB); without a session, as a signed-out app asks."""
    client = Client(port, "", log)
    start = time.monotonic()
    for n, email in enumerate(emails):
        time.sleep(max(0.0, start + (n + 0.5) * seconds / len(emails) - time.monotonic()))
        status, _ = client.call(
            "POST", "/_allauth/app/v1/auth/password/request", {"email": email}, what="reset"
        )
        if status == 200:
            asked.append(email)


def chaos(stack: Stack, cache: Proxy, broker: Proxy, log: Log, seconds: float,
          outage: float, smtp: SmtpSink | None = None,
          flush: Callable[[], None] | None = None) -> None:  # fmt: skip
    plan = [
        (0.15, "kill -9 worker", stack.kill_worker, None),
        (0.30, "cache (Redis) unreachable", cache.cut, cache.restore),
        (0.55, "broker unreachable", broker.cut, broker.restore),
        (0.75, "kill -9 worker", stack.kill_worker, None),
    ]
    if smtp is not None:
        plan.append((0.40, "mail server down", smtp.stop, smtp.start))
    if flush is not None:
        plan.append((0.65, "Redis FLUSHDB (the soak's database)", flush, None))
    plan.sort(key=lambda step: step[0])
    start = time.monotonic()
    for at, name, act, undo in plan:
        time.sleep(max(0.0, start + at * seconds - time.monotonic()))
        began = time.monotonic()
        act()
        if undo is not None:
            time.sleep(outage)
            undo()
        with log.lock:
            log.outages.append((name, began, time.monotonic()))
        print(f"  chaos: {name} at {began - start:.1f}s for {time.monotonic() - began:.1f}s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=120, help="spread of the chaos plan")
    parser.add_argument("--outage", type=float, default=5, help="seconds each Redis cut lasts")
    parser.add_argument("--drain", type=float, default=120)
    parser.add_argument("--port", type=int, default=18220)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("SOAK_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/lp_soak"),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    )
    parser.add_argument(
        "--broker-url", default=os.environ.get("SOAK_BROKER_URL", ""),
        help="RabbitMQ (amqp://USER:PASSWORD@HOST:PORT/VHOST) as the broker; default Redis",
    )  # fmt: skip
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    rng = random.Random(args.seed)
    began = time.monotonic()

    recreate_soak_database(args.database_url)
    redis = urlparse(args.redis_url)
    redis_db = redis.path.lstrip("/") or "0"
    cache_port, broker_port, server_port = args.port, args.port + 1, args.port + 2
    smtp_port = args.port + 3
    for port in (cache_port, broker_port, server_port, smtp_port):
        if not port_is_free(port):
            raise SystemExit(f"port {port} is taken; pass --port")
    cache = Proxy(cache_port, (redis.hostname or "127.0.0.1", redis.port or 6379))
    rabbitmq = urlparse(args.broker_url) if args.broker_url else None
    if rabbitmq is None:
        broker = Proxy(broker_port, (redis.hostname or "127.0.0.1", redis.port or 6379))
        broker_url = f"redis://127.0.0.1:{broker_port}/{redis_db}"
    else:
        broker = Proxy(broker_port, (rabbitmq.hostname or "127.0.0.1", rabbitmq.port or 5672))
        netloc = rabbitmq.netloc.rsplit("@", 1)[0] + "@" if "@" in rabbitmq.netloc else ""
        broker_url = f"amqp://{netloc}127.0.0.1:{broker_port}{rabbitmq.path or '/'}"
    run_id = f"soak-{os.getpid()}"
    log_dir = Path(tempfile.mkdtemp(prefix="lp-soak-"))
    mail_dir = log_dir / "mail"
    mail_dir.mkdir()
    smtp = SmtpSink(smtp_port, mail_dir)
    env = {
        **os.environ,
        "DEBUG": "0", "TESTING": "0", "SECRET_KEY": f"soak-{uuid.uuid4()}",
        "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false", "SECURE_HSTS_SECONDS": "0",
        "DATABASE_URL": args.database_url, "REDIS_URL": "",
        "CACHE_URL": f"redis://127.0.0.1:{cache_port}/{redis_db}",
        "BROKER_URL": broker_url,
        "CACHE_KEY_PREFIX": run_id, "CELERY_TASK_DEFAULT_QUEUE": run_id,
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}", "LOG_LEVEL": "WARNING",
        # A task whose message the FLUSHDB lost is published again this soon (production: 300);
        # as long as the visibility timeout, so a task merely waiting is rarely sent twice.
        "OUTBOX_REDELIVER_AFTER": "30",
        "COMMUNITY_DIGEST_WINDOW_SECONDS": "5", "SUBMISSION_REQUEUE_AFTER": "10",
        "CELERY_VISIBILITY_TIMEOUT": "30", "CELERY_TASK_TIME_LIMIT": "20",
        "CELERY_TASK_SOFT_TIME_LIMIT": "15", "CELERY_RETRY_BACKOFF_MAX": "5",
        "THROTTLE_SUBMISSIONS": "1000/min", "THROTTLE_COMMENTS": "1000/min", "THROTTLE_COMMENT_EDITS": "1000/min",
        "THROTTLE_SYNC": "1000/min",
    }  # fmt: skip
    os.environ.update({k: v for k, v in env.items() if k != "PATH"})
    os.environ["DJANGO_SETTINGS_MODULE"] = "learning_platform.settings"
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=BASE_DIR, env=env, check=True)
    subprocess.run([*manage, "load_curriculum", "content/"], cwd=BASE_DIR, env=env, check=True,
                   capture_output=True)  # fmt: skip

    import logging

    import django

    django.setup()
    # This process's own sweeps fail during the broker cut by design; one line each is enough.
    logging.getLogger("learning_platform.outbox").setLevel(logging.ERROR)
    from accounts.models import User
    from exercises.models import Exercise
    from lessons.models import Lesson

    lessons = list(Lesson.objects.filter(published=True).values_list("slug", flat=True))
    exercise = Exercise.objects.filter(lesson__published=True).first()
    # Signed in by session (below), so no password: hashing 200 would take a minute.
    learners = User.objects.bulk_create(
        [
            User(email=f"soak{i}@example.com", display_name=f"S{i}", password="!")
            for i in range(args.learners)
        ]
    )
    squatter = User.objects.create(email="squatter@example.com", password="!")
    moderator = User.objects.create_superuser("moderator@example.com", None)

    def lose_everything() -> None:
        flush_redis(args.redis_url, run_id)
        if rabbitmq is not None:
            purge_queue(args.broker_url, run_id)

    stack = Stack(env=env, port=server_port, queue=run_id, log_dir=log_dir)
    log = Log()
    try:
        stack.start_server()
        stack.start_worker()
        clients = [
            (u.id, Client(server_port, session_token_for(u, engine=SESSIONS_IN_DB), log))
            for u in learners
        ]
        abuse = Abuse(owners=sign_up_owners(server_port, log, 4))
        admin = AdminSession(
            server_port, session_token_for(moderator, engine=SESSIONS_IN_DB).split(".", 1)[1]
        )
        print(
            f"soak: {len(clients)} learners, {args.threads} threads, {len(lessons)} lessons, "
            f"logs in {log_dir} (set up in {time.monotonic() - began:.0f}s)"
        )
        started = time.monotonic()
        chaos_thread = threading.Thread(
            target=chaos,
            args=(stack, cache, broker, log, args.seconds, args.outage, smtp,
                  lose_everything),
        )  # fmt: skip
        chaos_thread.start()
        resets_asked: list[str] = []
        resets_thread = threading.Thread(
            target=ask_for_resets,
            args=(server_port, [u.email for u in learners[:8]], log, args.seconds, resets_asked),
        )
        resets_thread.start()
        threads = learner_threads(clients, lessons, exercise.id, log, seconds=args.seconds,
                                  threads=args.threads, rng=rng, started=started)  # fmt: skip
        # One more learner posts and edits Markdown bombs the whole time.
        threads.append(threading.Thread(target=bomb, args=(
            clients[0][1], lessons, log, started + args.seconds, random.Random(args.seed),
        )))  # fmt: skip
        # The squatter and the owners, and the moderator (issue 41), all along too.
        until = started + args.seconds
        squatter_client = Client(server_port, session_token_for(squatter, engine=SESSIONS_IN_DB),
                                 log)  # fmt: skip
        threads.append(threading.Thread(
            target=squat, args=(squatter_client, server_port, mail_dir, log, abuse, until),
        ))  # fmt: skip
        learning = list(threads)
        threads.append(threading.Thread(target=moderate, args=(
            admin, abuse, lambda: any(t.is_alive() for t in learning),
        )))  # fmt: skip
        for t in threads:
            t.start()
        next_sweep = time.monotonic()
        while (
            any(t.is_alive() for t in threads)
            or chaos_thread.is_alive()
            or resets_thread.is_alive()
        ):
            if time.monotonic() >= next_sweep:
                sweep()
                next_sweep = time.monotonic() + 5
            time.sleep(0.5)
        load_seconds = time.monotonic() - started
        print(f"soak: load done in {load_seconds:.0f}s; draining (at most {args.drain:.0f}s)")
        drain_began = time.monotonic()
        drained = drain(args.drain)
        print(f"soak: drained in {time.monotonic() - drain_began:.0f}s")
        rows = [
            *invariants(log, mail_dir, drained, resets=resets_asked),
            bomb_invariant(log),
            squatting_invariant(abuse, squatter.id, server_port, log),
            moderation_invariant(abuse),
        ]
    finally:
        stack.stop()
        if rabbitmq is not None:
            purge_queue(args.broker_url, run_id, delete=True)
    print_table(rows, log, load_seconds)
    server_log = (log_dir / "server.log").read_text()
    print(f"\nbroker: {'RabbitMQ' if rabbitmq else 'Redis'}")
    print(
        f"the outages as the server saw them: {server_log.count('Could not publish')} tasks "
        f"kept for the sweep (broker), {server_log.count('serving without it')} times a "
        f"process paused its cache (Redis); {stack.worker_starts} worker processes started"
    )
    return 0 if all(ok for _, ok, _ in rows) else 1


def drain(limit: float) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if settled():
            return True
        sweep()
        time.sleep(3)
    return settled()


if __name__ == "__main__":
    sys.exit(main())
