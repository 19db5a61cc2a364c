"""How bench/run drives a read and what it measures of it: wrk or Python threads, the SQL
queries of one request in process, the gunicorn workers' CPU (bench/stack.py)."""

from __future__ import annotations

import re
import statistics
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bench import bench_grading
from bench.bench_progress import request

ROOT = Path(__file__).resolve().parent.parent
WRK_SCRIPT = ROOT / "bench" / "wrk_report.lua"


@dataclass
class Figure:
    name: str
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    bad: int
    queries: int | str = "-"
    target: float | None = None
    ratio: float | None = None
    cpu_ms: float | None = None  # CPU of the gunicorn workers per request
    cpu_ratio: float | None = None


def median_figure(name: str, runs: list[Figure]) -> Figure:
    figure = Figure(
        name,
        statistics.median(run.requests_per_second for run in runs),
        statistics.median(run.p50_ms for run in runs),
        statistics.median(run.p99_ms for run in runs),
        sum(run.bad for run in runs),
    )
    cpu = [run.cpu_ms for run in runs if run.cpu_ms is not None]
    figure.cpu_ms = statistics.median(cpu) if cpu else None
    return figure


def workers_cpu_seconds(master_pid: int) -> float:
    """CPU time used so far by gunicorn's worker processes (the master's children)."""
    return sum(
        seconds
        for role, seconds in bench_grading.cpu_seconds_by_process(master_pid).values()
        if role == "worker pool"
    )


# --- Load -----------------------------------------------------------------------------------


def run_wrk(port: int, path: str, headers: dict, *, seconds: float, connections: int) -> Figure:
    duration = max(1, round(seconds))
    command = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "-s", str(WRK_SCRIPT)]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run(
        [*command, f"http://127.0.0.1:{port}{path}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=duration + 60,
    ).stdout
    match = re.search(
        r"WRK requests=(\d+) duration_us=(\d+) bad=(\d+) socket_errors=(\d+) "
        r"p50_us=(\d+) p99_us=(\d+)",
        output,
    )
    if match is None:
        raise RuntimeError(f"wrk printed no report for {path}:\n{output}")
    done, duration, bad, socket_errors, p50, p99 = map(int, match.groups())
    # gunicorn's sync workers close every connection: wrk counts the close as a read error
    # on some platforms, so only answers that were not 2xx/3xx count as failures.
    del socket_errors
    return Figure(path, done / (duration / 1e6), p50 / 1e3, p99 / 1e3, bad)


def run_threads(
    port: int,
    method: str,
    path: str,
    make_request,
    *,
    seconds: float | None,
    connections: int,
    total: int | None = None,
) -> Figure:
    """Drive `path` from `connections` threads for `seconds` (or `total` requests);
    `make_request(i)` answers (headers, body) of the i-th request."""
    latencies: list[float] = []
    bad = [0]
    counter = iter(range(10**9))
    lock = threading.Lock()
    deadline = [0.0]

    def worker() -> None:
        while True:
            with lock:
                index = next(counter)
            if total is not None and index >= total:
                return
            if total is None and time.perf_counter() > deadline[0]:
                return
            headers, body = make_request(index)
            started = time.perf_counter()
            try:
                status, _ = request(port, method, path, headers=headers, body=body)
            except OSError:
                status = 0
            elapsed = time.perf_counter() - started
            with lock:
                latencies.append(elapsed)
                if not 200 <= status < 400:
                    bad[0] += 1

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    began = time.perf_counter()
    deadline[0] = began + (seconds or 0)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    latencies.sort()
    return Figure(
        path,
        len(latencies) / wall,
        latencies[len(latencies) // 2] * 1e3,
        latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1e3,
        bad[0],
    )


def queries_per_request(path: str, headers: dict, *, method: str = "GET", body=None) -> int:
    """SQL queries of one request through the whole stack (middleware, authentication), in
    this process on the same database and cache, after a first request warmed them."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}
    if method == "GET":
        client.get(path, **extra)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path, **extra)
    else:
        with CaptureQueriesContext(connection) as queries:
            response = client.generic(method, path, body, content_type="application/json", **extra)
    if response.status_code >= 400:
        raise RuntimeError(f"{method} {path} answered {response.status_code} in-process")
    return len(queries)
