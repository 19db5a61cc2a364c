"""`make run` as a learner meets it: a reply e-mail goes out on its own, with working links.

The server is `scripts/run.sh` (what `make run` runs after building) in a subprocess on the
embedded default: a fresh SQLite file, no Redis, e-mail on the console, a 30 s digest window,
served on a free port other than 8000. Two learners sign up through allauth's app API; one
comments, the other replies, and the reply's e-mail must appear on the server's console
within two minutes, every link in it on that port. It takes a minute or two (a fresh
database is migrated first), so it is marked `served`: `make test` leaves it out and CI runs it
(.ci/run, "make run sends a reply e-mail").
"""

import email
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from rest_framework.utils import json

from learning_platform.tests.waiting import wait_until

pytestmark = pytest.mark.served

BASE_DIR = Path(__file__).resolve().parents[2]
# Whatever the shell running the tests has configured, the server gets the embedded default.
NOT_INHERITED = (
    "DATABASE_URL", "REDIS_URL", "CACHE_URL", "BROKER_URL", "TESTING", "PYTEST_XDIST_WORKER",
    "FRONTEND_URL", "PUBLIC_API_URL", "EMBEDDED_SCHEDULER", "EMAIL_URL", "DJANGO_SETTINGS_MODULE",
    "ENV_FILE", "TEST_CLOCK",
)  # fmt: skip
# The console back end ends each message with a line of 79 dashes.
MESSAGE_END = "-" * 79


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return port if port != 8000 else free_port()


class Server:
    """scripts/run.sh in its own process group, its output collected as it comes."""

    def __init__(self, tmp_path: Path, port: int) -> None:
        env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
        env |= {
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "PY": sys.executable,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'make-run.sqlite3'}",
            "EMAIL_URL": "consolemail://",
            "COMMUNITY_DIGEST_WINDOW_SECONDS": "30",
            "PYTHONUNBUFFERED": "1",
        }
        self.origin = f"http://127.0.0.1:{port}"
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [str(BASE_DIR / "scripts" / "run.sh")],
            cwd=BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def output(self) -> str:
        return "".join(self.lines)

    def stop(self) -> None:
        # The server's process group: run.sh's runserver and its autoreloaded child.
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def request(self, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
        url = path if path.startswith("http") else f"{self.origin}{path}"
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if token:
            headers["X-Session-Token"] = token
        # The test's own server, over http: no other scheme reaches these calls.
        request = urllib.request.Request(url, data=data, method=method, headers=headers)  # noqa: S310
        try:
            with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def wait_until_up(self, timeout: float) -> None:
        def serving() -> bool:
            assert self.process.poll() is None, f"run.sh exited:\n{self.output()[-3000:]}"
            return self.request("GET", "/healthz")[0] == 200

        wait_until(
            serving, timeout=timeout, not_yet=(OSError,), failure=lambda: self.output()[-3000:]
        )


@pytest.fixture
def server(tmp_path):
    started = Server(tmp_path, free_port())
    try:
        # A fresh database is migrated and the curriculum loaded before it serves.
        started.wait_until_up(timeout=300)
        yield started
    finally:
        started.stop()


def sign_up(server: Server, email_address: str) -> str:
    status, body = server.request(
        "POST",
        "/_allauth/app/v1/auth/signup",
        {"email": email_address, "password": "a long enough passphrase 42"},
    )
    assert status == 200, body
    return json.loads(body)["meta"]["session_token"]


def console_emails(output: str) -> list[email.message.Message]:
    blocks = output.split(MESSAGE_END)[:-1]
    messages = []
    for block in blocks:
        start = block.find("Content-Type:")
        if start != -1:
            messages.append(email.message_from_string(block[start:]))
    return messages


def plain_text(message: email.message.Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode(part.get_content_charset() or "utf-8")
    raise AssertionError("no text/plain part")


def links_in(message: email.message.Message) -> list[str]:
    return re.findall(r"https?://[^\s\"'<>)]+", plain_text(message))


def test_a_reply_email_goes_out_within_two_minutes_with_links_on_the_served_port(server):
    author = sign_up(server, "author@example.com")
    replier = sign_up(server, "replier@example.com")
    comments = "/api/v1/lessons/embedding-dimension/comments/"
    status, body = server.request("POST", comments, {"body": "Why 768?"}, token=author)
    assert status == 201, body
    comment_id = json.loads(body)["id"]

    status, body = server.request(
        "POST", comments, {"body": "It is 12 heads of 64.", "parent": comment_id}, token=replier
    )
    assert status == 201, body
    reply_email = wait_until(
        lambda: next(
            (
                m
                for m in console_emails(server.output())
                if m["To"] == "author@example.com" and m["List-Unsubscribe"]
            ),
            None,
        ),
        timeout=120,
        failure=lambda: f"no reply e-mail:\n{server.output()[-3000:]}",
    )

    every_link = [link for m in console_emails(server.output()) for link in links_in(m)]
    assert [link for link in every_link if not link.startswith(f"{server.origin}/")] == []
    links = links_in(reply_email)
    lesson_link = next(link for link in links if "/lessons/embedding-dimension#comment-" in link)
    app_built = (BASE_DIR / "web" / "dist" / "index.html").exists()
    assert server.request("GET", lesson_link)[0] == (200 if app_built else 503)
    unsubscribe = next(link for link in links if "/api/v1/unsubscribe/" in link)
    assert server.request("GET", unsubscribe)[0] == 200
    assert (
        reply_email["List-Unsubscribe"].strip().startswith(f"<{server.origin}/api/v1/unsubscribe/")
    )
