"""The soak's stack (bench/soak.py): TCP proxies in front of Redis that it can cut, and gunicorn
and a Celery worker it can kill."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bench.bench_progress import stop as stop_process
from bench.bench_progress import wait_for_server

BASE_DIR = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


# --- A TCP proxy that can be cut -------------------------------------------------------------


def listening_socket(port: int, *, backlog: int, host: str = "127.0.0.1") -> socket.socket:
    """A TCP listener on `host`:`port`, reusable at once after a cut."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(backlog)
    return listener


class Proxy:
    """Forwards host:port (default 127.0.0.1) to a backend; `cut()` drops every connection and
    refuses new ones until `restore()`; `freeze()` lets nothing through, connections accepted
    and kept, until `thaw()` (a network dropping packets: what was sent arrives afterwards)."""

    def __init__(self, port: int, backend: tuple[str, int], host: str = "127.0.0.1") -> None:
        self.port, self.backend, self.host = port, backend, host
        self.up = True
        self._flowing = threading.Event()
        self._flowing.set()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._closed = False
        self._listen()
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def _listen(self) -> None:
        self._listener = listening_socket(self.port, backlog=256, host=self.host)
        # Port 0 takes a free one; a restore listens on that same port again.
        self.port = self._listener.getsockname()[1]

    def _accept_loop(self) -> None:
        while not self._closed:
            listener = self._listener
            if listener is None:
                time.sleep(0.05)
                continue
            try:
                client, _ = listener.accept()
            except OSError:
                time.sleep(0.05)
                continue
            self._flowing.wait()  # frozen: accepted, and left waiting
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
                self._flowing.wait()
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
            stop_listening(listener)
        with self._lock:
            sockets = list(self._sockets)
        for s in sockets:
            self._close(s)

    def restore(self) -> None:
        self._listen()
        self.up = True

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    def close(self) -> None:
        """Cut for good: the accepting thread ends too."""
        self._closed = True
        self.thaw()
        self.cut()


def stop_listening(listener: socket.socket) -> None:
    """Close a listening socket that a thread may be blocked accepting on. close() alone leaves
    the kernel socket listening until that accept() returns (connections are still taken, and
    binding the port again fails); shutdown() ends the accept at once."""
    with contextlib.suppress(OSError):
        listener.shutdown(socket.SHUT_RDWR)
    listener.close()


# --- Processes -------------------------------------------------------------------------------


def port_is_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


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
        wait_for_server(self.port, self.server, timeout=60)

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


# --- A mail server that can be cut -----------------------------------------------------------


class SmtpSink:
    """A minimal SMTP server on host:port (127.0.0.1 unless told) writing each message it accepts to `mail_dir`
    (one file per message); `stop()` refuses connections (a mail server outage) until `start()`.

    Enough SMTP for Django's SMTP backend (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) and
    nothing more: no TLS, no authentication."""

    def __init__(self, port: int, mail_dir: Path, host: str = "127.0.0.1") -> None:
        self.port, self.mail_dir, self.host = port, mail_dir, host
        self.accepted = 0
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.start()
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def start(self) -> None:
        self._listener = listening_socket(self.port, backlog=64, host=self.host)

    def stop(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            stop_listening(listener)

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
            threading.Thread(target=self._session, args=(client,), daemon=True).start()

    def _session(self, client: socket.socket) -> None:
        reader = client.makefile("rb")

        def reply(line: str) -> None:
            client.sendall(line.encode() + b"\r\n")

        try:
            reply("220 soak-smtp ready")
            while raw := reader.readline():
                command = raw.decode("utf-8", "replace").strip()
                verb = command[:4].upper()
                if verb == "EHLO":
                    reply("250-soak-smtp")
                    reply("250 8BITMIME")
                elif verb == "DATA":
                    reply("354 end with <CRLF>.<CRLF>")
                    lines = []
                    while (line := reader.readline()) not in (b".\r\n", b".\n", b""):
                        lines.append(line[1:] if line.startswith(b"..") else line)
                    self._keep(b"".join(lines))
                    reply("250 queued")
                elif verb == "QUIT":
                    reply("221 bye")
                    return
                else:  # HELO, MAIL, RCPT, RSET, NOOP
                    reply("250 ok")
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                client.close()

    def _keep(self, message: bytes) -> None:
        with self._lock:
            self.accepted += 1
            number = self.accepted
        (self.mail_dir / f"{number:06d}.eml").write_bytes(message)
