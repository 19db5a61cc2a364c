"""The multi-node rehearsal's machinery (bench/cluster.py): network namespaces for the nodes,
HAProxy in front of the web nodes (and forwarding Redis or RabbitMQ to the namespaces),
pgbouncer in front of PostgreSQL, and the nodes as process groups it can kill or cut off.

Each node runs in a network namespace of its own (`ip netns`), joined to the host by a veth
pair on one bridge (the host is SUBNET.1, the nodes .11 and up). A namespace cannot reach the
host's 127.0.0.1, so everything the nodes use listens on the bridge's address: pgbouncer
itself, and HAProxy's TCP listeners forwarding to Redis and RabbitMQ on 127.0.0.1. Cutting a
node sets its veth link down: its connections hang, as behind a failed switch, until the link
is up again. Without the right to make namespaces (not root), `--no-netns` runs every node on
127.0.0.1 and a cut stops the node's process group (SIGSTOP) instead, a node that answers
nothing for as long.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse, urlunparse

from bench.bench_progress import stop as stop_process

BASE_DIR = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
SUBNET = "10.183.0"
BRIDGE = "lpc-br"


def run(*argv: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(argv, check=check, capture_output=True, text=True)


# --- The network ----------------------------------------------------------------------------


class Network:
    """The bridge and one namespace per node; or, with `isolated` off, 127.0.0.1 for all."""

    def __init__(self, isolated: bool) -> None:
        self.isolated = isolated
        self.host = f"{SUBNET}.1" if isolated else "127.0.0.1"
        self.namespaces: list[str] = []
        if isolated:
            self.teardown()  # an earlier run's leftovers
            run("ip", "link", "add", BRIDGE, "type", "bridge")
            run("ip", "addr", "add", f"{self.host}/24", "dev", BRIDGE)
            run("ip", "link", "set", BRIDGE, "up")

    @staticmethod
    def available() -> bool:
        probe = "lpc-probe"
        made = run("ip", "netns", "add", probe, check=False).returncode == 0
        run("ip", "netns", "del", probe, check=False)
        return made

    def add(self, name: str, index: int) -> str:
        """A namespace `lpc-NAME` with address SUBNET.(10 + index); its address."""
        if not self.isolated:
            return "127.0.0.1"
        ns, address = f"lpc-{name}", f"{SUBNET}.{10 + index}"
        run("ip", "netns", "add", ns)
        run("ip", "link", "add", f"{ns}h", "type", "veth", "peer", "name", f"{ns}n")
        run("ip", "link", "set", f"{ns}n", "netns", ns)
        run("ip", "link", "set", f"{ns}h", "master", BRIDGE)
        run("ip", "link", "set", f"{ns}h", "up")
        run("ip", "-n", ns, "addr", "add", f"{address}/24", "dev", f"{ns}n")
        run("ip", "-n", ns, "link", "set", f"{ns}n", "up")
        run("ip", "-n", ns, "link", "set", "lo", "up")
        self.namespaces.append(ns)
        return address

    def link(self, name: str, up: bool) -> None:
        run("ip", "link", "set", f"lpc-{name}h", "up" if up else "down")

    def teardown(self) -> None:
        for line in run("ip", "netns", "list", check=False).stdout.splitlines():
            ns = line.split()[0] if line.strip() else ""
            if ns.startswith("lpc-"):
                run("ip", "netns", "del", ns, check=False)
        run("ip", "link", "del", BRIDGE, check=False)


# --- The nodes ------------------------------------------------------------------------------


@dataclass
class Node:
    """One web, worker or beat node: a process group, in its namespace when there is one."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log_dir: Path
    network: Network
    address: str
    process: subprocess.Popen | None = None
    starts: int = 0
    cut_off: bool = False

    def start(self) -> None:
        prefix = ["ip", "netns", "exec", f"lpc-{self.name}"] if self.network.isolated else []
        self.starts += 1
        self.process = subprocess.Popen(
            [*prefix, *self.argv], cwd=BASE_DIR, env=self.env,
            stdout=(self.log_dir / f"{self.name}.log").open("a"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def kill(self) -> None:
        """kill -9 of the node's every process (its process group)."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def cut(self) -> None:
        self.cut_off = True
        if self.network.isolated:
            self.network.link(self.name, up=False)
        else:
            self._signal(signal.SIGSTOP)

    def restore(self) -> None:
        if self.network.isolated:
            self.network.link(self.name, up=True)
        else:
            self._signal(signal.SIGCONT)
        self.cut_off = False

    def _signal(self, sig: signal.Signals) -> None:
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)

    def stop(self) -> None:
        if self.cut_off:
            self.restore()
        if self.process is not None:
            stop_process(self.process, timeout=10)


def web_argv(address: str, port: int) -> list[str]:
    # gunicorn as the image runs it; WEB_CONCURRENCY (the ConfigMap's) sets the workers.
    return [str(VENV_BIN / "gunicorn"), "learning_platform.wsgi:application",
            "--config", "gunicorn.conf.py", "--bind", f"{address}:{port}",
            "--log-level", "warning"]  # fmt: skip


def worker_argv(name: str) -> list[str]:
    # As deploy/k8s/worker.yaml runs it.
    return [sys.executable, "-m", "celery", "-A", "learning_platform", "worker", "-l", "INFO",
            "--concurrency", "2", "-n", f"{name}@%h"]  # fmt: skip


def beat_argv(log_dir: Path) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "learning_platform", "beat", "-l", "INFO",
            "--schedule", str(log_dir / "celerybeat-schedule")]  # fmt: skip


# --- HAProxy --------------------------------------------------------------------------------


@dataclass
class HAProxy:
    """The load balancer: HTTP on 127.0.0.1:port to the web nodes, health-checking /readyz
    with the Host and X-Forwarded-Proto a TLS-terminating balancer sends; and TCP listeners
    on the bridge forwarding to services on the host's 127.0.0.1."""

    port: int
    public_host: str
    run_dir: Path
    webs: dict[str, str] = field(default_factory=dict)  # name -> address:port
    forwards: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (bind, to)
    process: subprocess.Popen | None = None

    @property
    def socket_path(self) -> Path:
        return self.run_dir / "haproxy.sock"

    def config(self) -> str:
        servers = "\n".join(f"    server {n} {a} check" for n, a in self.webs.items())
        tcp = "".join(
            f"\nlisten {name}\n    mode tcp\n    bind {bind}\n    timeout client 1h\n"
            f"    timeout server 1h\n    server {name} {to}\n"
            for name, (bind, to) in self.forwards.items()
        )
        return f"""global
    maxconn 2000
    stats socket {self.socket_path} mode 600 level admin

defaults
    mode http
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    # A connection refused (a dead node) is tried again on the other node.
    retries 2
    option redispatch

frontend web
    bind 127.0.0.1:{self.port}
    default_backend web

backend web
    balance roundrobin
    http-request set-header Host {self.public_host}
    http-request set-header X-Forwarded-Proto https
    option httpchk
    http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host {self.public_host} hdr X-Forwarded-Proto https
    http-check expect status 200
    # A refused connection (a dead node) fails a check at once: down within two seconds.
    # A busy node's sync workers answer the check after the requests queued before it, so
    # a check may wait 3 s before it counts as failed.
    timeout check 3s
    default-server inter 1s fall 2 rise 2
{servers}
{tcp}"""

    def start(self) -> None:
        path = self.run_dir / "haproxy.cfg"
        path.write_text(self.config())
        run("haproxy", "-c", "-q", "-f", str(path))
        self.process = subprocess.Popen(
            ["haproxy", "-db", "-f", str(path)], stdout=(self.run_dir / "haproxy.log").open("a"),
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not self.socket_path.exists():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("haproxy did not start; see haproxy.log")
            time.sleep(0.1)

    def status(self) -> dict[str, str]:
        """Each web server's state as HAProxy sees it (UP, DOWN, ...)."""
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(str(self.socket_path))
            s.sendall(b"show stat\n")
            raw = b""
            while chunk := s.recv(65536):
                raw += chunk
        rows = csv.DictReader(io.StringIO(raw.decode().lstrip("# ")))
        return {
            r["svname"]: r["status"].split()[0]
            for r in rows
            if r["pxname"] == "web" and r["svname"] in self.webs
        }

    def wait_for(self, server: str, state: str, timeout: float = 30) -> float:
        """Wait until `server` is `state`; the time.monotonic() it was seen so."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.status().get(server) == state:
                return time.monotonic()
            time.sleep(0.05)
        raise RuntimeError(f"haproxy: {server} not {state} within {timeout:.0f}s")

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process, timeout=5)


def forwarded(url: str, listen_host: str, port: int, haproxy: HAProxy, name: str) -> str:
    """`url` as the nodes reach it: when it names the host's loopback and the nodes cannot
    reach it, HAProxy forwards listen_host:port to it and the URL names that instead."""
    parts = urlparse(url)
    if listen_host == "127.0.0.1" or parts.hostname not in ("127.0.0.1", "localhost"):
        return url
    default_ports = {"redis": 6379, "amqp": 5672, "postgres": 5432}
    target = f"127.0.0.1:{parts.port or default_ports[parts.scheme]}"
    haproxy.forwards[name] = (f"{listen_host}:{port}", target)
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@{listen_host}:{port}" if credentials else f"{listen_host}:{port}"
    return urlunparse(parts._replace(netloc=netloc))


# --- pgbouncer ------------------------------------------------------------------------------


@dataclass
class PgBouncer:
    """pgbouncer in transaction pooling between the nodes and PostgreSQL (the server at
    127.0.0.1:5432, one database), with the admin console for the "restart"."""

    port: int
    listen: list[str]
    database: str
    run_dir: Path
    process: subprocess.Popen | None = None

    def start(self) -> None:
        self.run_dir.mkdir(exist_ok=True)
        (self.run_dir / "users.txt").write_text('"postgres" ""\n')
        (self.run_dir / "pgbouncer.ini").write_text(f"""[databases]
{self.database} = host=127.0.0.1 port=5432 dbname={self.database} user=postgres

[pgbouncer]
listen_addr = {",".join(self.listen)}
listen_port = {self.port}
unix_socket_dir =
auth_type = trust
auth_file = {self.run_dir / "users.txt"}
admin_users = postgres
pool_mode = transaction
max_client_conn = 500
default_pool_size = 20
server_reset_query =
ignore_startup_parameters = extra_float_digits
; A client that vanished mid-transaction (a node cut off) must not hold a server
; connection and its row locks for ever.
idle_transaction_timeout = 10
; A server login that fails (PostgreSQL starting up, or a PAUSE closing a connection that
; was still logging in) makes pgbouncer refuse every client for this long (default 15 s).
server_login_retry = 1
""")
        os.chmod(self.run_dir, 0o755)
        for name in ("users.txt", "pgbouncer.ini"):
            os.chmod(self.run_dir / name, 0o644)
        # pgbouncer refuses to run as root; it then runs as postgres.
        user = ["-u", "postgres"] if os.geteuid() == 0 else []
        self.process = subprocess.Popen(
            ["pgbouncer", *user, str(self.run_dir / "pgbouncer.ini")],
            stdout=(self.run_dir / "pgbouncer.log").open("a"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not self._answers():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"pgbouncer did not start; see {self.run_dir}/pgbouncer.log")
            time.sleep(0.1)

    def _answers(self) -> bool:
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def admin(self, command: str, timeout: float = 30) -> str:
        """A command on the admin console (simple query protocol only: psql)."""
        return subprocess.run(
            ["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d",
             "pgbouncer", "-Atc", command],
            check=True, capture_output=True, text=True, timeout=timeout,
        ).stdout  # fmt: skip

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process, timeout=5)
