"""Under gunicorn, one scrape of /metrics adds up the counts of every worker, gone ones too
(prometheus-client's multiprocess mode, set up by gunicorn.conf.py)."""

import os
import signal
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from learning_platform.tests.test_gunicorn import HEALTHZ, ROOT, _free_port, send, serving
from learning_platform.tests.waiting import wait_until

TOKEN = "gunicorn-metrics-test-token"


def _healthz_count(port: int) -> float:
    status, _, body = send(
        port,
        b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + f"Authorization: Bearer {TOKEN}\r\n\r\n".encode(),
    )
    assert status == 200
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            if (
                sample.name == "lp_http_request_duration_seconds_count"
                and sample.labels["route"] == "healthz"
                and sample.labels["status"] == "200"
            ):
                return sample.value
    return 0.0


def _pids_written(directory) -> set[str]:
    # prometheus-client names each process's files <kind>_<pid>.db.
    return {name.rsplit("_", 1)[-1] for name in os.listdir(directory)}


def _workers(master: int) -> set[int]:
    """The pids of the gunicorn master's worker processes (its children)."""
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # pid (comm) state ppid ...: comm may hold spaces, so split after its ")".
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if int(fields[1]) == master:
            children.add(int(stat.parent.name))
    return children


def _wait_until_gone(pids: set[int]) -> None:
    """Until these processes have exited (the master reaps its old workers)."""
    wait_until(
        lambda: not pids & {int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()},
        timeout=60,
        failure=lambda: f"the old workers {sorted(pids)} did not exit after the HUP",
    )


def _wait_for_a_worker(port: int) -> None:
    """Until a worker answers (on /readyz, whose count this test does not read)."""
    wait_until(
        lambda: send(port, HEALTHZ.replace(b"/healthz", b"/readyz")),
        timeout=120,
        not_yet=(OSError,),
        failure=lambda: "no worker answered after the HUP",
    )


def test_one_scrape_counts_the_requests_of_every_worker(tmp_path):
    port = _free_port()
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "gunicorn-test-only-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "SECURE_SSL_REDIRECT": "0",
        "METRICS_TOKEN": TOKEN,
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
    }
    log = (tmp_path / "gunicorn.log").open("w")
    command = [
        sys.executable, "-m", "gunicorn", "learning_platform.wsgi:application",
        "--config", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}", "--workers", "2",
        "--graceful-timeout", "2",
    ]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until(
            lambda: serving(server, port, tmp_path / "gunicorn.log"),
            timeout=90,
            not_yet=(OSError,),
            failure=lambda: f"gunicorn did not start: {(tmp_path / 'gunicorn.log').read_text()}",
        )
        before = _healthz_count(port)
        written_before = _pids_written(tmp_path / "metrics")

        statuses = [send(port, HEALTHZ)[0] for _ in range(15)]
        # HUP: gunicorn replaces every worker; the old ones' counts must stay in the sum.
        old_workers = _workers(server.pid)
        assert len(old_workers) == 2
        server.send_signal(signal.SIGHUP)
        _wait_until_gone(old_workers)  # within 2 s (--graceful-timeout)
        _wait_for_a_worker(port)
        statuses += [send(port, HEALTHZ)[0] for _ in range(15)]

        assert statuses == [200] * 30
        assert _healthz_count(port) == before + 30
        assert _pids_written(tmp_path / "metrics") > written_before
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
