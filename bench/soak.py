"""Fault-and-soak: learners keep working while the worker is killed and Redis goes away.

    .venv/bin/python bench/soak.py                       # 200 learners, the documented long run
    .venv/bin/python bench/soak.py --learners 30 --seconds 40   # the CI size

Starts, all on 127.0.0.1 ports from --port (default 18220):

- two TCP proxies this script controls, in front of the real Redis (--redis-url): one the
  processes use as their cache (CACHE_URL), one as their broker (BROKER_URL). Cutting a proxy
  closes its connections and refuses new ones: Redis is unreachable for those processes, while
  the machine's Redis keeps running for everyone else;
- gunicorn (2 workers x 4 threads, production settings) and one Celery worker (prefork, 2),
  on a PostgreSQL database of its own (--database-url, created when missing and emptied).

Then --learners learners, from --threads client threads, complete lessons, sync overlapping
batches from two devices each, submit an exercise, comment and reply to each other, while a
chaos thread kills the worker with SIGKILL twice (a new one starts at once), cuts the cache
proxy for --outage seconds and the broker proxy for --outage seconds. What beat does (the
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
- nothing stuck: no task kept unsent, no notification waiting past its digest, no e-mail unsent.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench.bench_progress import stop as stop_process  # noqa: E402

VENV_BIN = Path(sys.executable).parent

GOOD_CSV = (
    "model,d_model,n_layers,n_heads,vocab_size,intermediate_size\n"
    "GPT-2,768,12,12,50257,3072\n"
    "Mistral-7B-v0.1,4096,32,32,32000,14336\n"
)


# --- A TCP proxy that can be cut -------------------------------------------------------------


class Proxy:
    """Forwards 127.0.0.1:port to a backend; `cut()` drops every connection and refuses new
    ones until `restore()`."""

    def __init__(self, port: int, backend: tuple[str, int]) -> None:
        self.port, self.backend = port, backend
        self.up = True
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._listen()
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def _listen(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(256)
        self._listener = listener

    def _accept_loop(self) -> None:
        while True:
            listener = self._listener
            if listener is None:
                time.sleep(0.05)
                continue
            try:
                client, _ = listener.accept()
            except OSError:
                time.sleep(0.05)
                continue
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.backend, timeout=2)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, target):
                self._close(s)

    def _close(self, s: socket.socket) -> None:
        with self._lock:
            self._sockets.discard(s)
        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)
        s.close()

    def cut(self) -> None:
        """Connections reset, new ones refused (the listener is closed: connection refused)."""
        self.up = False
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        with self._lock:
            sockets = list(self._sockets)
        for s in sockets:
            self._close(s)

    def restore(self) -> None:
        self._listen()
        self.up = True


# --- Processes -------------------------------------------------------------------------------


def free_port(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def wait_http(port: int, path: str = "/healthz", timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"nothing answers on port {port}")


@dataclass
class Stack:
    env: dict[str, str]
    port: int
    queue: str
    log_dir: Path
    worker: subprocess.Popen | None = None
    server: subprocess.Popen | None = None
    worker_starts: int = 0

    def _log(self, name: str):
        return (self.log_dir / name).open("a")

    def start_server(self) -> None:
        self.server = subprocess.Popen(
            [str(VENV_BIN / "gunicorn"), "learning_platform.wsgi:application",
             "--bind", f"127.0.0.1:{self.port}", "--workers", "2", "--threads", "4",
             "--worker-class", "gthread", "--log-level", "warning", "--timeout", "60"],
            cwd=BASE_DIR, env=self.env, stdout=self._log("server.log"),
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        wait_http(self.port)

    def start_worker(self) -> None:
        self.worker_starts += 1
        self.worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "learning_platform", "worker",
             "--pool=prefork", "--concurrency=2", "--loglevel=INFO", "-Q", self.queue,
             "--without-gossip", "--without-mingle", "--without-heartbeat",
             "-n", f"soak{self.worker_starts}-{self.queue}@%h"],
            cwd=BASE_DIR, env=self.env, stdout=self._log("worker.log"),
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def kill_worker(self) -> None:
        """kill -9 the worker and its pool processes (its process group), then a new one."""
        assert self.worker is not None
        os.killpg(self.worker.pid, signal.SIGKILL)
        self.worker.wait()
        self.start_worker()

    def stop(self) -> None:
        for process in (self.server, self.worker):
            if process is not None:
                stop_process(process)


# --- The learners ----------------------------------------------------------------------------


@dataclass
class Log:
    lock: threading.Lock = field(default_factory=threading.Lock)
    answers: list[tuple[float, str, int]] = field(default_factory=list)
    outages: list[tuple[str, float, float]] = field(default_factory=list)
    completed: dict[int, set[str]] = field(default_factory=dict)
    replies: list[int] = field(default_factory=list)

    def answer(self, what: str, status: int) -> None:
        with self.lock:
            self.answers.append((time.monotonic(), what, status))


class Client:
    def __init__(self, port: int, token: str, log: Log) -> None:
        self.port, self.token, self.log = port, token, log

    def call(self, method: str, path: str, body=None, what: str = "") -> tuple[int, dict]:
        """One request; retried while the answer is 500/502/503 or the connection fails (a
        client retries; every write here is idempotent or keyed)."""
        for attempt in range(20):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                conn.request(
                    method,
                    path,
                    body=json.dumps(body) if body is not None else None,
                    headers={"X-Session-Token": self.token, "Content-Type": "application/json"},
                )
                response = conn.getresponse()
                status, raw = response.status, response.read()
                conn.close()
            except OSError:
                self.log.answer(what or path, 599)
                time.sleep(0.5)
                continue
            self.log.answer(what or path, status)
            if status == 429:
                time.sleep(1 + attempt * 0.2)
                continue
            if status >= 500:
                time.sleep(0.5)
                continue
            try:
                return status, json.loads(raw) if raw else {}
            except ValueError:
                return status, {}
        return status, {}


def learner_session(user_id: int, *, learner) -> str:
    """A signed-in app session for the learner (what allauth's app login makes), without
    going through the login rate limit 200 times from one address."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user_id)
    session[BACKEND_SESSION_KEY] = "accounts.backends.AuthenticationBackend"
    session[HASH_SESSION_KEY] = learner.get_session_auth_hash()
    session.create()
    return session.session_key


def work(learner_id: int, client: Client, lessons: list[str], exercise_id: int, log: Log,
         peers: list[tuple[int, Client]], rng: random.Random) -> None:  # fmt: skip
    done: set[str] = set()
    for slug in rng.sample(lessons, 3):
        status, _ = client.call("POST", f"/api/v1/lessons/{slug}/complete", what="complete")
        if status in (200, 201):
            done.add(slug)
    # Two devices with overlapping offline histories: shared events (same ids), and the same
    # lessons under other ids, sent from both devices, each batch twice.
    offline = rng.sample(lessons, 5)
    now = time.time()
    events = {
        slug: {"id": str(uuid.uuid4()), "type": "lesson_completed", "lesson": slug,
               "occurred_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 3600 * i))}
        for i, slug in enumerate(offline)
    }  # fmt: skip
    phone = [events[s] for s in offline[:4]]
    tablet = [events[s] for s in offline[2:]] + [dict(events[offline[1]], id=str(uuid.uuid4()))]
    for device, batch in (("phone", phone), ("tablet", tablet), ("phone", phone)):
        status, _ = client.call(
            "POST", "/api/v1/me/progress/sync", {"device_id": device, "events": batch}, "sync"
        )
        if status == 200:
            done.update(e["lesson"] for e in batch)
    client.call(
        "POST", f"/api/v1/exercises/{exercise_id}/submissions/",
        {"format": "csv", "content": GOOD_CSV}, "submit",
    )  # fmt: skip
    slug = rng.choice(lessons)
    status, comment = client.call(
        "POST", f"/api/v1/lessons/{slug}/comments/", {"body": f"Notes from {learner_id}"}, "comment"
    )
    if status == 201 and peers:
        _, peer = rng.choice(peers)
        status, reply = peer.call(
            "POST", f"/api/v1/lessons/{slug}/comments/",
            {"body": "Good point", "parent": comment["id"]}, "reply",
        )  # fmt: skip
        if status == 201:
            with log.lock:
                log.replies.append(reply["id"])
    client.call("GET", "/api/v1/me/progress", what="progress")
    client.call("GET", "/api/v1/me/", what="me")
    with log.lock:
        log.completed.setdefault(learner_id, set()).update(done)


# --- The run ---------------------------------------------------------------------------------


def recreate_database(database_url: str) -> None:
    """The soak's own database, dropped and created afresh (never the project's others)."""
    import psycopg

    url = urlparse(database_url)
    name = url.path.lstrip("/")
    if "soak" not in name:
        raise SystemExit(
            f"refusing to recreate {name!r}: the soak's database name has 'soak' in it"
        )
    with psycopg.connect(
        host=url.hostname or "127.0.0.1", port=url.port or 5432, user=url.username or "postgres",
        password=url.password, dbname="postgres", autocommit=True,
    ) as conn:  # fmt: skip
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def sweep() -> None:
    """What beat does: publish kept tasks, re-enqueue stale submissions, send due digests."""
    from community.tasks import send_overdue_emails
    from exercises.services.queueing import requeue_stale_submissions
    from learning_platform.outbox import send_unsent_tasks

    for job in (send_unsent_tasks, requeue_stale_submissions, send_overdue_emails.delay):
        try:
            job()
        except Exception as exc:  # a sweep during an outage fails; the next one runs
            print(f"  sweep {getattr(job, '__name__', job)}: {type(exc).__name__}: {exc}")


def chaos(stack: Stack, cache: Proxy, broker: Proxy, log: Log, seconds: float,
          outage: float) -> None:  # fmt: skip
    plan = [
        (0.15, "kill -9 worker", stack.kill_worker, None),
        (0.30, "cache (Redis) unreachable", cache.cut, cache.restore),
        (0.55, "broker unreachable", broker.cut, broker.restore),
        (0.75, "kill -9 worker", stack.kill_worker, None),
    ]
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
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    rng = random.Random(args.seed)
    began = time.monotonic()

    recreate_database(args.database_url)
    redis = urlparse(args.redis_url)
    redis_db = redis.path.lstrip("/") or "0"
    cache_port, broker_port, server_port = args.port, args.port + 1, args.port + 2
    for port in (cache_port, broker_port, server_port):
        if not free_port(port):
            raise SystemExit(f"port {port} is taken; pass --port")
    cache = Proxy(cache_port, (redis.hostname or "127.0.0.1", redis.port or 6379))
    broker = Proxy(broker_port, (redis.hostname or "127.0.0.1", redis.port or 6379))
    run_id = f"soak-{os.getpid()}"
    log_dir = Path(tempfile.mkdtemp(prefix="lp-soak-"))
    mail_dir = log_dir / "mail"
    mail_dir.mkdir()
    env = {
        **os.environ,
        "DEBUG": "0", "TESTING": "0", "SECRET_KEY": f"soak-{uuid.uuid4()}",
        "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false", "SECURE_HSTS_SECONDS": "0",
        "DATABASE_URL": args.database_url, "REDIS_URL": "",
        "CACHE_URL": f"redis://127.0.0.1:{cache_port}/{redis_db}",
        "BROKER_URL": f"redis://127.0.0.1:{broker_port}/{redis_db}",
        "CACHE_KEY_PREFIX": run_id, "CELERY_TASK_DEFAULT_QUEUE": run_id,
        "EMAIL_URL": f"filemail:///{mail_dir}", "LOG_LEVEL": "WARNING",
        "COMMUNITY_DIGEST_WINDOW_SECONDS": "5", "SUBMISSION_REQUEUE_AFTER": "10",
        "CELERY_VISIBILITY_TIMEOUT": "30", "CELERY_TASK_TIME_LIMIT": "20",
        "CELERY_TASK_SOFT_TIME_LIMIT": "15", "CELERY_RETRY_BACKOFF_MAX": "5",
        "THROTTLE_SUBMISSIONS": "1000/min", "THROTTLE_COMMENTS": "1000/min",
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
    stack = Stack(env=env, port=server_port, queue=run_id, log_dir=log_dir)
    log = Log()
    try:
        stack.start_server()
        stack.start_worker()
        clients = [
            (u.id, Client(server_port, learner_session(u.id, learner=u), log)) for u in learners
        ]
        print(
            f"soak: {len(clients)} learners, {args.threads} threads, {len(lessons)} lessons, "
            f"logs in {log_dir} (set up in {time.monotonic() - began:.0f}s)"
        )
        started = time.monotonic()
        chaos_thread = threading.Thread(
            target=chaos, args=(stack, cache, broker, log, args.seconds, args.outage)
        )
        chaos_thread.start()
        queue = list(enumerate(clients))
        rng.shuffle(queue)
        pace = args.seconds / max(1, len(queue))  # spread the learners over the chaos plan
        lock = threading.Lock()

        def client_thread(seed: int) -> None:
            thread_rng = random.Random(seed)
            while True:
                with lock:
                    if not queue:
                        return
                    index, (learner_id, client) = queue.pop()
                time.sleep(max(0.0, started + index * pace - time.monotonic()))
                peers = [c for c in clients if c[0] != learner_id]
                work(learner_id, client, lessons, exercise.id, log, peers, thread_rng)

        threads = [threading.Thread(target=client_thread, args=(i,)) for i in range(args.threads)]
        for t in threads:
            t.start()
        next_sweep = time.monotonic()
        while any(t.is_alive() for t in threads) or chaos_thread.is_alive():
            if time.monotonic() >= next_sweep:
                sweep()
                next_sweep = time.monotonic() + 5
            time.sleep(0.5)
        load_seconds = time.monotonic() - started
        print(f"soak: load done in {load_seconds:.0f}s; draining (at most {args.drain:.0f}s)")
        drain_began = time.monotonic()
        drained = drain(args.drain)
        print(f"soak: drained in {time.monotonic() - drain_began:.0f}s")
        rows = invariants(log, mail_dir, drained)
    finally:
        stack.stop()
    print_table(rows, log, load_seconds)
    server_log = (log_dir / "server.log").read_text()
    print(
        f"\nthe outages as the server saw them: {server_log.count('Could not publish')} tasks "
        f"kept for the sweep (broker), {server_log.count('serving without it')} times a "
        f"process paused its cache (Redis); {stack.worker_starts} worker processes started"
    )
    return 0 if all(ok for _, ok, _ in rows) else 1


def settled() -> bool:
    from community.models import EmailDelivery, EmailState, Notification
    from exercises.models import Submission, SubmissionStatus
    from learning_platform.models import UnsentTask

    return not (
        UnsentTask.objects.exists()
        or Submission.objects.filter(
            status__in=[SubmissionStatus.QUEUED, SubmissionStatus.GRADING]
        ).exists()
        or Notification.objects.filter(email_state=EmailState.PENDING).exists()
        or EmailDelivery.objects.filter(sent_at__isnull=True, failed_at__isnull=True).exists()
    )


def drain(limit: float) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if settled():
            return True
        sweep()
        time.sleep(3)
    return settled()


def invariants(log: Log, mail_dir: Path, drained: bool) -> list[tuple[str, bool, str]]:
    from django.db.models import Count, Sum

    from community.models import Comment, EmailDelivery, EmailState, Notification
    from exercises.models import Submission, SubmissionStatus
    from learning_platform.models import UnsentTask
    from progress.models import LearnerStats, LessonCompletion, XPAward

    rows: list[tuple[str, bool, str]] = []
    twice = (
        LessonCompletion.objects.values("user", "lesson").annotate(n=Count("id")).filter(n__gt=1)
    )
    recorded = {}
    for user_id, slug in LessonCompletion.objects.values_list("user_id", "lesson__slug"):
        recorded.setdefault(user_id, set()).add(slug)
    missing = sum(len(slugs - recorded.get(u, set())) for u, slugs in log.completed.items())
    total = LessonCompletion.objects.count()
    rows.append(("every completion once", not twice.exists() and missing == 0,
                 f"{total} completions, {twice.count()} twice, {missing} missing"))  # fmt: skip

    ledger = dict(XPAward.objects.values_list("user").annotate(s=Sum("amount")))
    wrong = [
        u
        for u, xp in LearnerStats.objects.values_list("user_id", "xp_total")
        if xp != ledger.get(u, 0)
    ]
    paid_twice = (
        XPAward.objects.values("user", "source_type", "source_id").annotate(n=Count("id"))
        .filter(n__gt=1).count()
    )  # fmt: skip
    rows.append(("XP equal to the sum of its sources", not wrong and not paid_twice,
                 f"{len(ledger)} learners with XP, {len(wrong)} wrong, {paid_twice} paid twice"))  # fmt: skip

    statuses = Counter(Submission.objects.values_list("status", flat=True))
    waiting = statuses[SubmissionStatus.QUEUED] + statuses[SubmissionStatus.GRADING]
    rows.append(("every submission graded", waiting == 0 and sum(statuses.values()) > 0,
                 f"{sum(statuses.values())} submissions, {waiting} not graded ({dict(statuses)})"))  # fmt: skip

    replies = Comment.objects.filter(pk__in=log.replies).select_related("reply_to")
    for_replies = Notification.objects.filter(
        dedupe_key__in=[f"comment:{r.pk}" for r in replies]
    ).count()
    not_once = []
    for reply in replies:
        answered = Notification.objects.filter(
            dedupe_key=f"comment:{reply.pk}", recipient_id=reply.reply_to.author_id
        ).count()
        if reply.reply_to.author_id != reply.author_id and answered != 1:
            not_once.append(reply.pk)
    rows.append(("every reply notified exactly once", not not_once and bool(log.replies),
                 f"{len(log.replies)} replies, {len(not_once)} not notified exactly once, "
                 f"{for_replies} notifications for them (followers included)"))  # fmt: skip

    messages = [
        m for f in mail_dir.iterdir() for m in f.read_text().split("-" * 79) if m.strip()
    ] if mail_dir.exists() else []  # fmt: skip
    sent = EmailDelivery.objects.filter(sent_at__isnull=False).count()
    emailed = Notification.objects.filter(email_state=EmailState.BATCHED).count()
    rows.append(("every reply e-mailed at most once", len(messages) <= sent,
                 f"{sent} e-mails sent covering {emailed} notifications, {len(messages)} "
                 "messages delivered (more than sent = a duplicate)"))  # fmt: skip

    grace = 2.0
    errors = [(t, what, s) for t, what, s in log.answers if s >= 500]
    windows = [(b - 0.5, e + grace) for name, b, e in log.outages if "unreachable" in name]
    outside = [x for x in errors if not any(b <= x[0] <= e for b, e in windows)]
    rows.append(("no 500 outside the seconds a component was down", not outside,
                 f"{len(log.answers)} answers, {len(errors)} 5xx/failed connections, "
                 f"{len(outside)} outside outages {Counter(w for _, w, _ in outside)}"))  # fmt: skip

    unsent = UnsentTask.objects.count()
    unsent_mail = EmailDelivery.objects.filter(sent_at__isnull=True, failed_at__isnull=True).count()
    pending = Notification.objects.filter(email_state=EmailState.PENDING).count()
    rows.append(("nothing stuck", drained and not (unsent or unsent_mail or pending),
                 f"{unsent} unsent tasks, {pending} notifications waiting, {unsent_mail} "
                 "e-mails unsent"))  # fmt: skip
    return rows


def print_table(rows, log: Log, load_seconds: float) -> None:
    statuses = Counter(s for _, _, s in log.answers)
    print(f"\nrequests: {len(log.answers)} in {load_seconds:.0f}s; status codes {dict(statuses)}")
    for name, began, ended in log.outages:
        print(f"outage: {name} for {ended - began:.1f}s")
    width = max(len(name) for name, _, _ in rows)
    print(f"\n{'invariant':<{width}}  result  figures")
    for name, ok, detail in rows:
        print(f"{name:<{width}}  {'ok' if ok else 'BROKEN':<6}  {detail}")


if __name__ == "__main__":
    sys.exit(main())
