"""gunicorn, started with the project's config (gunicorn.conf.py), answers what it refuses
itself in the API's error shape."""

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from learning_platform.tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def gunicorn_log(tmp_path_factory) -> Path:
    """Where the server writes: its access log (as the image starts it), the app's log lines."""
    return tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"


@pytest.fixture(scope="module")
def gunicorn_port(gunicorn_log) -> Iterator[int]:
    port = _free_port()
    folder = gunicorn_log.parent
    database, log = folder / "db.sqlite3", gunicorn_log.open("w")
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "gunicorn-test-only-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{database}",
        "SECURE_SSL_REDIRECT": "0",
    }
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "learning_platform.wsgi:application",
            "--config",
            "gunicorn.conf.py",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--graceful-timeout",
            "2",
            "--access-logfile",
            "-",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        # Ready when a worker has loaded the app and answers (slow on a busy CI machine).
        wait_until(
            lambda: serving(server, port, gunicorn_log),
            timeout=90,
            not_yet=(OSError,),
            failure=lambda: f"gunicorn did not start: {gunicorn_log.read_text()}",
        )
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def serving(server: subprocess.Popen[bytes], port: int, log: Path) -> bool:
    """Whether gunicorn answers /healthz (OSError while it does not listen yet)."""
    if server.poll() is not None:
        pytest.fail(f"gunicorn exited: {log.read_text()}")
    return send(port, HEALTHZ)[0] == 200


def send(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
        client.sendall(raw)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in header_lines)
    return int(status_line.split()[1]), {k.lower(): v for k, v in headers.items()}, body


def assert_error_shape(headers: dict[str, str], body: bytes, status: int, code: str) -> None:
    assert headers["content-type"] == "application/json"
    error = json.loads(body)
    assert set(error) == {"type", "title", "status", "detail", "errors"}
    assert (error["type"], error["status"], error["errors"]) == (code, status, {})


def test_a_request_line_over_the_limit_answers_414_in_the_error_shape(gunicorn_port):
    path = "/api/v1/lessons/?search=" + "x" * 5000

    status, headers, body = send(
        gunicorn_port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    )

    assert status == 414
    assert_error_shape(headers, body, 414, "uri_too_long")


def test_a_malformed_request_line_answers_400_in_the_error_shape(gunicorn_port):
    status, headers, body = send(gunicorn_port, b"NOT A REQUEST\r\n\r\n")

    assert status == 400
    assert_error_shape(headers, body, 400, "bad_request")


def test_too_many_headers_answer_431_in_the_error_shape(gunicorn_port):
    many = "".join(f"X-H{n}: v\r\n" for n in range(101))

    status, headers, body = send(
        gunicorn_port, f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n{many}\r\n".encode()
    )

    assert status == 431
    assert_error_shape(headers, body, 431, "header_fields_too_large")


def test_the_api_still_answers_behind_the_config(gunicorn_port):
    status, _, _ = send(gunicorn_port, HEALTHZ)

    assert status == 200


def test_the_access_log_keeps_no_key_of_an_e_mailed_link(gunicorn_port, gunicorn_log):
    reset_key = "3f-ck9rv1-9a8b7c6d5e4f3a2b1c0d-b3duZXI.0123456789abcdef"
    verify_key = "MjM:1vZQ2a:Hq3Lx9sEcretVerifyKey"

    for path in (f"/account/password/reset/key/{reset_key}", "/api/v1/unsubscribe/eyJ1Ijox:tok"):
        send(
            gunicorn_port,
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            f"Referer: http://127.0.0.1/account/verify-email/{verify_key}\r\n\r\n".encode(),
        )

    written = wait_until(
        lambda: "/api/v1/unsubscribe/" in (text := gunicorn_log.read_text()) and text, timeout=10
    )
    assert 'GET /account/password/reset/key/<redacted> HTTP/1.1" ' in written  # gunicorn's
    assert '"http://127.0.0.1/account/verify-email/<redacted>"' in written  # its Referer
    for secret in (reset_key, verify_key, "eyJ1Ijox"):
        assert secret not in written
