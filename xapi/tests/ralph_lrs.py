"""Ralph's LRS (openfun/ralph, the `ralph-malph` package) with its file backend, started on a
free port of 127.0.0.1 for the tests and bench/bench_xapi.py, and stopped after: what
`ralph runserver -b fs` runs (uvicorn serving `ralph.api:app`), without its auto-reload, and
with HTTP basic credentials of its own in a temporary directory.

The statements it stores are the lines of one JSON Lines file (`RalphLrs.data_file`): what
`stored()` reads to count them and their ids.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bcrypt
import requests

from learning_platform.tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
USERNAME = "learning-platform"
STARTUP_SECONDS = 60


def unavailable() -> str | None:
    """Why Ralph's LRS cannot run in this environment, or None when it can."""
    for module in ("ralph.api", "fastapi", "uvicorn", "bcrypt"):
        try:
            if importlib.util.find_spec(module) is None:
                return f"{module} is not installed (requirements/dev.txt has it: make venv)"
        except ImportError as error:
            return f"{module} cannot be imported: {error}"
    return None


@dataclass
class RalphLrs:
    url: str
    username: str
    password: str
    data_file: Path

    @property
    def xapi_url(self) -> str:
        """The xAPI endpoint for XAPI_LRS_URL (statements at `<url>/statements`)."""
        return f"{self.url}/xAPI"

    def post(self, statements: list[dict[str, Any]]) -> requests.Response:
        """POST statements to Ralph directly, as an LRS client other than ours would."""
        return requests.post(
            f"{self.xapi_url}/statements",
            json=statements,
            auth=(self.username, self.password),
            headers={"X-Experience-API-Version": "1.0.3"},
            timeout=10,
        )

    def stored(self) -> list[dict[str, Any]]:
        """Every statement Ralph stored, in the order it stored them."""
        if not self.data_file.exists():
            return []
        with self.data_file.open(encoding="utf-8") as lines:
            return [json.loads(line) for line in lines if line.strip()]

    def counts(self) -> tuple[int, int]:
        """(statements stored, duplicates: statements stored under an id stored before)."""
        ids = Counter(statement["id"] for statement in self.stored())
        return sum(ids.values()), sum(n - 1 for n in ids.values())

    def forget(self) -> None:
        """Drop every stored statement (between tests sharing one server)."""
        self.data_file.unlink(missing_ok=True)


def _auth_file(directory: Path, password: str) -> Path:
    # Ralph's basic auth reads bcrypt hashes; 4 rounds, the least bcrypt takes: a test server.
    digest = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=4)).decode()
    path = directory / "auth.json"
    path.write_text(
        json.dumps(
            [
                {
                    # The authority Ralph writes into what it stores: this site's account.
                    "agent": {"account": {"homePage": "http://127.0.0.1", "name": USERNAME}},
                    "hash": digest,
                    "username": USERNAME,
                    "scopes": ["all"],
                }
            ]
        )
    )
    return path


@contextmanager
def running_ralph(directory: Path) -> Iterator[RalphLrs]:
    """Start Ralph's LRS on a free port with its files in `directory`; stop it on exit."""
    data = directory / "statements"
    data.mkdir(parents=True, exist_ok=True)
    password = secrets.token_urlsafe(16)
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "RALPH_APP_DIR": str(directory),
        "RALPH_AUTH_FILE": str(_auth_file(directory, password)),
        "RALPH_RUNSERVER_BACKEND": "fs",
        "RALPH_BACKENDS__LRS__FS__DEFAULT_DIRECTORY_PATH": str(data),
    }
    # The socket is bound here and handed to uvicorn (--fd): no other process can take the
    # port between choosing it and serving on it.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    log = (directory / "ralph.log").open("wb")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "xapi.tests.ralph_app:app",
            "--fd",
            str(listener.fileno()),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        cwd=ROOT,
        env=env,
        pass_fds=[listener.fileno()],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    listener.close()
    try:
        _wait_until_up(url, server, directory / "ralph.log")
        yield RalphLrs(url, USERNAME, password, data / "fs_lrs.jsonl")
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def _wait_until_up(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    def answers() -> bool:
        if server.poll() is not None:
            raise RuntimeError(f"Ralph's LRS exited ({server.returncode}):\n{log.read_text()}")
        # The socket listens from the start: until uvicorn serves, a request waits unread.
        return requests.get(f"{url}/__lbheartbeat__", timeout=2).ok

    wait_until(
        answers,
        timeout=STARTUP_SECONDS,
        not_yet=(requests.RequestException,),
        failure=lambda: f"Ralph's LRS did not answer:\n{log.read_text()}",
    )
