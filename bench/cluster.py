"""Multi-node rehearsal: two web nodes, two worker nodes and beat behind HAProxy and pgbouncer,
while a web node is killed, a worker node is killed and another cut off, PostgreSQL restarts,
and Redis is lost, then stops answering.

    .venv/bin/python bench/cluster.py                          # Redis as the broker
    .venv/bin/python bench/cluster.py --broker-url amqp://guest:guest@127.0.0.1:5672/lp_cluster
    .venv/bin/python bench/cluster.py --learners 30 --seconds 60 --cut 35   # the CI size

Needs root (network namespaces, `ip`), HAProxy and pgbouncer (Debian's packages), PostgreSQL
on 127.0.0.1:5432 and Redis (or RabbitMQ). Starts on this machine (bench/cluster_stack.py):

- pgbouncer in transaction pooling in front of the rehearsal's own database (--database-url,
  dropped and created afresh), migrated and loaded as the migrate Job does, through pgbouncer;
- two web nodes (gunicorn as the image runs it) and two worker nodes (Celery, as the worker
  Deployment runs it), each its own process group in its own network namespace, and beat;
- HAProxy on 127.0.0.1:--port, health-checking each web node's /readyz; it also forwards
  RabbitMQ from the bridge to 127.0.0.1 (a namespace cannot reach the host's loopback);
- Redis (and a Redis broker) through a proxy of the rehearsal's own on the bridge
  (bench/cluster_redis.py).

Every node runs with deploy/k8s/configmap.yaml's settings (bench/cluster_env.py): production,
DEBUG off, only addresses, secrets and timings scaled down to a run of minutes differ.

--learners learners, through the balancer, complete lessons, sync, submit an exercise, comment
and reply (bench/soak_learners.py), while: web node A is killed with SIGKILL (HAProxy marks it
down, it starts again); a burst of submissions is sent and worker node A killed while they
are graded (it starts again); PostgreSQL "restarts": its server connections for the database
are terminated and pgbouncer PAUSEd for --outage seconds, then RESUMEd (the shared server
itself is never restarted); worker node B is cut from the network for --cut seconds (its link
down); a write through web node A is read at once through web node B; and Redis is lost for
--redis-loss seconds, then stops answering for --redis-freeze (bench/cluster_redis.py). Then
the backlog drains and the invariants are printed (exit status 1 when one breaks):

- the soak's (bench/soak_checks.py): every completion once, XP equal to its sources, every
  submission graded, every reply notified exactly once and e-mailed at most once, nothing
  stuck, no 5xx outside the fault windows (the web kill until HAProxy marked the node down,
  the PostgreSQL restart; two seconds of grace);
- every submission graded exactly once: graded, and each learner's exercise XP paid once;
- the web kill: the requests that failed before HAProxy marked the node down are counted and
  at most one per client thread; none failed after;
- no stale read: each write through node A is seen by the next read through node B (the
  progress header and the lesson, also when B is asked with the ETag it gave before);
- every metric moved or is present: each web node's /metrics and each worker node's metrics
  port, scraped at the start of the load and after the drain (bench/cluster_metrics.py);
- after the Redis loss, every read equals the database and every board the ledger, each
  within 60 s of Redis's return; while Redis does not answer, no 5xx and every request
  answered in time (bench/cluster_redis.py, which also prints the latency around them);
- web node B runs the whole rehearsal with its wall clock minutes ahead, past the midnight of
  some learners' zone: what they do through B counts on the database's day, both nodes
  answer them the same progress, no latency comes out negative (bench/cluster_clock.py;
  `--node-clocks` turns the nodes' correction off, and these checks then fail).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench.cluster_checks import FAULTS, cluster_invariants, print_faults  # noqa: E402
from bench.cluster_clock import LEARNERS as CLOCK_LEARNERS  # noqa: E402
from bench.cluster_clock import ClockCheck, node_b_env  # noqa: E402
from bench.cluster_clock import plan as clock_plan  # noqa: E402
from bench.cluster_env import node_env as deployment_env  # noqa: E402
from bench.cluster_env import rehearsal_env  # noqa: E402
from bench.cluster_metrics import scrape_nodes, table  # noqa: E402
from bench.cluster_redis import ProxyProcess, RedisFaults, Witness, proxied  # noqa: E402
from bench.cluster_stack import (  # noqa: E402
    HAProxy,
    Network,
    Node,
    PgBouncer,
    beat_argv,
    forwarded,
    web_argv,
    worker_argv,
)
from bench.postgres import admin_connection, database_name, recreate_database  # noqa: E402
from bench.soak import drain  # noqa: E402
from bench.soak_checks import invariants, print_table  # noqa: E402
from bench.soak_learners import GOOD_CSV, Client, Log, learner_threads, lesson_checks  # noqa: E402
from bench.soak_stack import SmtpSink, port_is_free  # noqa: E402
from bench.stack_data import session_token_for  # noqa: E402

DRIVER = "lp-cluster-driver"  # the application_name of this script's own connections
WEB_PORT_IN_NODE = 18310
# Seconds a node may take to start (several Pythons importing Django on a busy machine).
STARTUP = 180


class Rehearsal:
    def __init__(self, args, stack: dict, log: Log, clients, lessons, exercise_id) -> None:
        self.args, self.log, self.clients = args, log, clients
        self.lessons, self.exercise_id = lessons, exercise_id
        self.webs, self.workers = stack["webs"], stack["workers"]
        self.haproxy, self.pgbouncer = stack["haproxy"], stack["pgbouncer"]
        self.public_host = stack["public_host"]
        self.web_kill: tuple[float, float] | None = None
        self.grading_at_kill = -1
        self.reads = {"checked": 0, "stale": 0, "not_modified": 0}
        self.checkable = lesson_checks(lessons)  # lessons completed by their checks alone
        self.redis: RedisFaults | None = None

    def outage(self, name: str, began: float, ended: float) -> None:
        with self.log.lock:
            self.log.outages.append((name, began, ended))
        print(f"  fault: {name} for {ended - began:.1f}s")

    def kill_web(self) -> None:
        node = self.webs["web-a"]
        began = time.monotonic()
        node.kill()
        down = self.haproxy.wait_for("web-a", "DOWN")
        self.web_kill = (began, down)
        self.outage("kill -9 web node web-a (until HAProxy marked it down)", began, down)
        node.start()
        self.haproxy.wait_for("web-a", "UP", timeout=STARTUP)
        print(f"  web-a back in HAProxy {time.monotonic() - down:.1f}s after it was marked down")

    def kill_worker_mid_batch(self) -> None:
        from exercises.models import Submission, SubmissionStatus

        # The burst is for the workers: with web-a still starting again (after its kill),
        # it would overload web-b alone, a fault this rehearsal does not plan.
        for node in ("web-a", "web-b"):
            self.haproxy.wait_for(node, "UP", timeout=STARTUP)
        # Two submissions from each learner at once: more than the workers grade at once.
        burst = [c for _, c in self.clients] * 2
        submit = [
            threading.Thread(target=c.call, args=(
                "POST", f"/api/v1/exercises/{self.exercise_id}/submissions/",
                {"format": "csv", "content": GOOD_CSV}, "submit",
            )) for c in burst
        ]  # fmt: skip
        for t in submit:
            t.start()
        deadline = time.monotonic() + 10
        grading = Submission.objects.filter(status=SubmissionStatus.GRADING)
        while not grading.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        self.grading_at_kill = grading.count()
        began = time.monotonic()
        self.workers["worker-a"].kill()
        self.outage(f"kill -9 worker node worker-a ({self.grading_at_kill} grading)", began, began)
        for t in submit:
            t.join()
        time.sleep(2)
        self.workers["worker-a"].start()

    def restart_postgres(self) -> None:
        """PostgreSQL going away under pgbouncer and coming back, for this database only:
        every server connection terminated (transactions in flight fail), then pgbouncer
        PAUSEd (new queries wait) for --outage seconds, then RESUMEd."""
        name = database_name(self.args.database_url)
        began = time.monotonic()
        with admin_connection(self.args.database_url) as conn:
            killed = conn.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s"
                " AND application_name <> %s AND pid <> pg_backend_pid()",
                [name, DRIVER],
            ).fetchone()[0]
        self.pgbouncer.admin(f"PAUSE {name}", timeout=20)
        time.sleep(self.args.outage)
        self.pgbouncer.admin(f"RESUME {name}")
        self.outage(f"PostgreSQL restart ({killed} server connections ended)", began,
                    time.monotonic())  # fmt: skip

    def cut_worker(self) -> None:
        node = self.workers["worker-b"]
        began = time.monotonic()
        node.cut()
        time.sleep(self.args.cut)
        node.restore()
        self.outage("worker node worker-b cut from the network", began, time.monotonic())

    def read_your_writes(self) -> None:
        """Through node A a lesson completed and a comment posted on it; at once through node
        B the progress header and the lesson (its comment count), each asked with the ETag B
        gave before the write: a 304 or old content is a stale read."""
        for node in ("web-a", "web-b"):
            self.haproxy.wait_for(node, "UP", timeout=STARTUP)
        rng = random.Random(self.args.seed)
        for _, client in rng.sample(self.clients, min(10, len(self.clients))):
            token = client.token
            _, head, progress = self.fetch("web-b", "GET", "/api/v1/me/progress", token)
            slug = next(s for s in self.checkable if s not in progress["completed_lessons"])
            path = f"/api/v1/lessons/{slug}/"
            _, lesson_head, lesson = self.fetch("web-b", "GET", path, token)
            done = max(
                self.fetch("web-a", "POST", f"/api/v1/checks/{check_id}/answers", token,
                           body={"answer": answer})[0]
                for check_id, answer in self.checkable[slug]
            )  # fmt: skip
            posted, _, _ = self.fetch(
                "web-a", "POST", f"{path}comments/", token, body={"body": "Read me from B"}
            )
            if done != 200 or posted != 201:
                print(f"  read-your-writes: writes through A answered {done}, {posted}")
                continue
            status, _, after = self.fetch(
                "web-b",
                "GET",
                "/api/v1/me/progress",
                token,
                {"If-None-Match": head.get("ETag", "")},
            )
            l_status, _, lesson_after = self.fetch(
                "web-b", "GET", path, token, {"If-None-Match": lesson_head.get("ETag", "")}
            )
            self.reads["checked"] += 1
            self.reads["not_modified"] += (status == 304) + (l_status == 304)
            fresh = (
                status == 200 and slug in after["completed_lessons"]
                and after["xp"] > progress["xp"] and l_status == 200
                and lesson_after["comment_count"] == lesson["comment_count"] + 1
            )  # fmt: skip
            if not fresh:
                self.reads["stale"] += 1
                print(f"  read-your-writes: stale read of {slug} through B ({status}, {l_status})")

    def fetch(self, node: str, method: str, path: str, token: str, headers=None, body=None):
        """A request straight to a web node, as HAProxy forwards it."""
        host, port = self.haproxy.webs[node].rsplit(":", 1)
        began = time.monotonic()
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers={
            "X-Session-Token": token, "Host": self.public_host, "X-Forwarded-Proto": "https",
            "Content-Type": "application/json", **(headers or {}),
        })  # fmt: skip
        response = conn.getresponse()
        raw = response.read()
        conn.close()
        self.log.answer(f"direct {method}", response.status, time.monotonic() - began)
        return response.status, dict(response.headers), json.loads(raw) if raw else {}

    def chaos(self) -> None:
        plan = [
            (0.10, self.kill_web),
            (0.25, self.kill_worker_mid_batch),
            (0.35, self.restart_postgres),
            (0.45, self.cut_worker),
            (0.55, self.read_your_writes),
            *([(0.62, self.redis.run)] if self.redis else []),
        ]
        start = time.monotonic()
        threads = []
        for at, act in plan:
            time.sleep(max(0.0, start + at * self.args.seconds - time.monotonic()))
            # Each at its time, whether the one before is over or not (a node restarting,
            # the long worker cut): faults overlap, as they do.
            threads.append(threading.Thread(target=act))
            threads[-1].start()
        for thread in threads:
            thread.join()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=60)
    parser.add_argument("--threads", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=90, help="spread of the fault plan")
    parser.add_argument("--outage", type=float, default=5, help="seconds PostgreSQL is away")
    parser.add_argument("--cut", type=float, default=35, help="seconds worker-b is cut off")
    parser.add_argument("--drain", type=float, default=120)
    parser.add_argument("--port", type=int, default=18300, help="HAProxy; the next 4 too")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-netns", action="store_true", help="no namespaces: cut = SIGSTOP")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("CLUSTER_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/lp_cluster"),
    )  # fmt: skip
    parser.add_argument(
        "--redis-url", default=os.environ.get("CLUSTER_REDIS_URL", "redis://127.0.0.1:6379/11"),
        help="its own database number: it is flushed",
    )  # fmt: skip
    parser.add_argument("--broker-url", default=os.environ.get("CLUSTER_BROKER_URL", ""),
                        help="default: --redis-url; or amqp://USER:PASS@HOST:5672/VHOST")  # fmt: skip
    parser.add_argument("--redis-loss", type=float, default=30,
                        help="seconds Redis is lost mid-load (0: no Redis faults)")  # fmt: skip
    parser.add_argument("--redis-freeze", type=float, default=10,
                        help="seconds Redis then stops answering")  # fmt: skip
    parser.add_argument("--read-window", type=float, default=15,
                        help="seconds the witnesses' reads are checked after Redis returns")  # fmt: skip
    parser.add_argument("--witnesses", type=int, default=6)
    parser.add_argument("--node-clocks", action="store_true",
                        help="every node trusts its own wall clock (CLOCK_FROM_DATABASE=false)")  # fmt: skip
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    began = time.monotonic()
    if "cluster" not in database_name(args.database_url):
        raise SystemExit("refusing to recreate a database without 'cluster' in its name")
    for port in range(args.port, args.port + 5):
        if not port_is_free(port):
            raise SystemExit(f"port {port} is taken; pass --port")
    isolated = not args.no_netns
    if isolated and not Network.available():
        raise SystemExit("cannot make network namespaces (needs root): pass --no-netns")
    recreate_database(args.database_url)
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()

    run_dir = Path(tempfile.mkdtemp(prefix="lp-cluster-"))
    network = Network(isolated)
    nodes: list[Node] = []
    haproxy: HAProxy | None = None
    pgbouncer: PgBouncer | None = None
    redis_proxy: ProxyProcess | None = None
    try:
        host = network.host
        env = rehearsal_env({}, {})  # the public name, before the addresses are known
        public_host = env["ALLOWED_HOSTS"].split(",")[0]
        haproxy = HAProxy(port=args.port, public_host=public_host, run_dir=run_dir)
        pgbouncer = PgBouncer(port=args.port + 1, listen=sorted({"127.0.0.1", host}),
                              database=database_name(args.database_url),
                              run_dir=run_dir / "pgbouncer")  # fmt: skip
        # Redis (and a Redis broker) through the rehearsal's own proxy, which loses it.
        redis_url, redis_at = proxied(args.redis_url, host, args.port + 2)
        redis_proxy = ProxyProcess(args.port + 2, redis_at, host)
        broker_url = (forwarded(args.broker_url, host, args.port + 3, haproxy, "broker")
                      if args.broker_url else redis_url)  # fmt: skip
        mail_dir = run_dir / "mail"
        mail_dir.mkdir()
        SmtpSink(args.port + 4, mail_dir, host=host)
        env = rehearsal_env(
            {
                "DATABASE_URL": f"postgres://postgres@{host}:{args.port + 1}/{pgbouncer.database}",
                "REDIS_URL": redis_url, "BROKER_URL": broker_url,
                "EMAIL_URL": f"smtp://{host}:{args.port + 4}",
            },
            {"SECRET_KEY": f"cluster-{uuid.uuid4()}{uuid.uuid4()}",
             "METRICS_TOKEN": str(uuid.uuid4())},
        )  # fmt: skip
        if args.node_clocks:
            env["CLOCK_FROM_DATABASE"] = "false"
        with admin_connection(args.database_url) as conn:
            skew = clock_plan(conn.execute("SELECT clock_timestamp()").fetchone()[0])
        # Nothing of this process's own settings leaks into the nodes: only the system's.
        keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONDONTWRITEBYTECODE")
        node_env = {**{k: os.environ[k] for k in keep if k in os.environ}, **env}

        metrics_at: dict[str, str] = {}  # node -> address:port of its metrics
        for index, name in enumerate(("web-a", "web-b", "worker-a", "worker-b", "beat"), 1):
            address = network.add(name, index)
            # Each web and worker node its own multiprocess directory, as each pod its volume.
            own = {"PROMETHEUS_MULTIPROC_DIR": str(run_dir / "metrics" / name)}
            extra: dict[str, str] = {}
            if name.startswith("web"):
                # In its namespace every node has the port; on 127.0.0.1 each its own.
                port = WEB_PORT_IN_NODE if isolated else args.port + 10 + index
                argv = web_argv(address, port)
                haproxy.webs[name] = metrics_at[name] = f"{address}:{port}"
                extra = deployment_env("web", own)
                if name == "web-b":  # its wall clock minutes ahead (bench/cluster_clock.py)
                    extra.update(node_b_env(skew))
            elif name.startswith("worker"):
                argv = worker_argv(name)
                if not isolated:
                    own["WORKER_METRICS_PORT"] = str(args.port + 10 + index)
                extra = deployment_env("worker", own)
                metrics_at[name] = f"{address}:{extra['WORKER_METRICS_PORT']}"
            else:
                argv = beat_argv(run_dir)
            nodes.append(Node(name, argv, {**node_env, **extra}, run_dir, network, address))
        pgbouncer.start()
        haproxy.start()
        print(f"cluster: pgbouncer and HAProxy up in {time.monotonic() - began:.0f}s; migrating")
        # The migrate Job, through pgbouncer (the host reaches the bridge's address too).
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=BASE_DIR,
                       env=node_env, check=True)  # fmt: skip
        subprocess.run([*manage, "load_curriculum", "content/"], cwd=BASE_DIR, env=node_env,
                       check=True, capture_output=True)  # fmt: skip

        print(f"cluster: migrated and loaded in {time.monotonic() - began:.0f}s")
        # This process: the same settings, its own direct connection (it checks and sweeps).
        direct = f"{args.database_url}?application_name={DRIVER}"
        os.environ.update({**env, "DATABASE_URL": direct})
        os.environ["DJANGO_SETTINGS_MODULE"] = "learning_platform.settings"
        import logging

        import django

        django.setup()
        logging.getLogger("learning_platform.outbox").setLevel(logging.ERROR)
        from accounts.models import User
        from exercises.models import Exercise
        from learning_platform.celery import app, queue_names
        from lessons.models import Lesson

        app.control.purge()  # an earlier run's messages on the broker
        published = Lesson.objects.filter(published=True).order_by("quest", "position")
        lessons = list(published.values_list("slug", flat=True))
        exercise = Exercise.objects.filter(lesson__published=True).first()
        learners = User.objects.bulk_create(
            User(email=f"cluster{i}@example.com", display_name=f"C{i}", password="!")
            for i in range(args.learners)
        )
        witnesses = User.objects.bulk_create(
            User(email=f"witness{i}@example.com", display_name=f"W{i}", password="!")
            for i in range(args.witnesses)
        )
        clock_learners = User.objects.bulk_create(
            User(email=f"clock{i}@example.com", display_name=f"K{i}", password="!",
                 time_zone=skew.zone) for i in range(CLOCK_LEARNERS)
        )  # fmt: skip
        for node in nodes:
            node.start()
        stack = {
            "webs": {n.name: n for n in nodes if n.name.startswith("web")},
            "workers": {n.name: n for n in nodes if n.name.startswith("worker")},
            "haproxy": haproxy, "pgbouncer": pgbouncer, "public_host": public_host,
        }  # fmt: skip
        for name in haproxy.webs:
            haproxy.wait_for(name, "UP", timeout=STARTUP)
        log = Log()
        clients = [(u.id, Client(args.port, session_token_for(u), log)) for u in learners]
        print(
            f"cluster: {len(clients)} learners, {args.threads} threads, broker "
            f"{broker_url.split('://')[0]}, {'network namespaces' if isolated else 'no netns'}, "
            f"logs in {run_dir} (set up in {time.monotonic() - began:.0f}s)"
        )
        rehearsal = Rehearsal(args, stack, log, clients, lessons, exercise.id)
        clock_check = ClockCheck(
            rehearsal, skew, [(u.id, session_token_for(u)) for u in clock_learners]
        )
        clock_check.run()
        if args.redis_loss:
            ids = dict(published.values_list("slug", "id"))
            # The last lessons (the least read), one each, none of read_your_writes' first ones.
            slugs = list(rehearsal.checkable)[-len(witnesses) :]
            seen = [Witness(u.id, session_token_for(u), slug, ids[slug],
                            rehearsal.checkable[slug]) for u, slug in zip(witnesses, slugs, strict=True)]  # fmt: skip
            everyone = [(u, c.token) for u, c in clients] + [(w.user_id, w.token) for w in seen]
            rehearsal.redis = RedisFaults(rehearsal, redis_proxy, seen, everyone, args)
        scrape = {"token": env["METRICS_TOKEN"], "host": public_host}
        scraped = [scrape_nodes(metrics_at, **scrape, wait=STARTUP)]
        # A learner's look at the boards, which the flushed Redis lacks: a rebuild is queued.
        clients[0][1].call("GET", "/api/v1/leaderboard", what="leaderboard")
        started = time.monotonic()
        chaos = threading.Thread(target=rehearsal.chaos)
        chaos.start()
        threads = learner_threads(clients, lessons, exercise.id, log, seconds=args.seconds,
                                  threads=args.threads, rng=random.Random(args.seed),
                                  started=started, checks=rehearsal.checkable)  # fmt: skip
        for t in threads:
            t.start()
        for t in [*threads, chaos]:
            t.join()
        load_seconds = time.monotonic() - started
        print(f"cluster: load done in {load_seconds:.0f}s; draining (at most {args.drain:.0f}s)")
        drain_began = time.monotonic()
        drained = drain(args.drain)
        print(f"cluster: drained in {time.monotonic() - drain_began:.0f}s")
        scraped.append(scrape_nodes(metrics_at, **scrape, wait=30))
        metric_lines, stuck = table(*scraped, age=time.monotonic() - began, queues=queue_names(),
                                    nodes=list(metrics_at))  # fmt: skip
        rows = [
            *invariants(log, mail_dir, drained, faults=FAULTS),
            *cluster_invariants(rehearsal, args.threads),
            *(rehearsal.redis.invariants() if rehearsal.redis else []),
            *clock_check.invariants(scraped[-1]),
            ("every metric moved or is present", not stuck,
             f"{len(metric_lines) - 1} metrics of {len(metrics_at)} nodes; "
             f"not: {', '.join(stuck) or 'none'}"),
        ]  # fmt: skip
    finally:
        for node in nodes:
            node.stop()
        for part in (haproxy, pgbouncer, redis_proxy):
            if part is not None:
                part.stop()
        if isolated:
            network.teardown()
    print("\n" + "\n".join(metric_lines))
    if rehearsal.redis:
        print("\n".join(rehearsal.redis.latency_lines()))
    print_table(rows, log, load_seconds)
    print_faults(log)
    starts = ", ".join(f"{n.name} {n.starts}" for n in nodes)
    print(f"\nnode starts: {starts}")
    return 0 if all(ok for _, ok, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
