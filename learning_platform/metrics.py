"""Every Prometheus metric the platform exports, defined once (docs/operations.md, "Metrics").

Names are stable: dashboards (deploy/grafana/) and alerts read them. Two kinds:

- recorded where they happen (counters and histograms), by the kernel's middleware, database
  wrapper, cache and Celery signals, and by apps through this module (grading latency,
  e-mails failed). Under gunicorn or a prefork worker every process writes them to files in
  PROMETHEUS_MULTIPROC_DIR (prometheus-client's multiprocess mode) and the scrape adds them up;
- read at scrape time (`ScrapeGauge`), from the owner of the value: the broker's queue depths,
  the outbox backlog, the leaderboards' last rebuild. The owner subscribes a reader to the
  gauge's hook in its `AppConfig.ready()`; a reader that fails leaves its samples out. Readers
  get the scrape's `ScrapeMemo`, so gauges fed by one read (queue depths and broker up) share it.

This module imports no app and needs no app registry: any process may import it early.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client import Counter as _Counter
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from learning_platform.hooks import Hook

logger = logging.getLogger(__name__)

# --- Recorded where they happen -------------------------------------------------------------

HTTP_REQUEST_DURATION = Histogram(
    "lp_http_request_duration_seconds",
    "Requests by route (the URL pattern), method and status; _count is the request count.",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
DB_QUERY_DURATION = Histogram(
    "lp_db_query_duration_seconds",
    "SQL statements by database alias, from Django's execute wrappers.",
    ["alias"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5),
)
CACHE_OPERATION_DURATION = Histogram(
    "lp_cache_operation_duration_seconds",
    "Calls to the Redis cache by operation, answered or not (Redis down is a miss).",
    ["operation"],
    buckets=(0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1),
)
TASK_WAIT = Histogram(
    "lp_celery_task_wait_seconds",
    "Seconds a task waited in the broker, from its publish (or its ETA) to its start.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900),
)
TASK_DURATION = Histogram(
    "lp_celery_task_duration_seconds",
    "Seconds a task ran, by task and final state (SUCCESS, FAILURE, RETRY, ...).",
    ["task", "state"],
    buckets=(0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 90),
)
GRADING_LATENCY = Histogram(
    "lp_grading_latency_seconds",
    "Seconds from a submission's creation to its grade being committed, by outcome.",
    ["outcome"],
    buckets=(0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900),
)
EMAILS_FAILED = _Counter(
    "lp_emails_failed",
    "E-mail sends that failed: will_retry (the mail server failed) or given_up.",
    ["outcome"],
)
# Labelled, so that no value (and in multiprocess mode no file) exists before a measurement:
# a process imports this module before PROMETHEUS_MULTIPROC_DIR is made.
CLOCK_SKEW = Gauge(
    "lp_clock_skew_seconds",
    "Seconds to add to this node's wall clock to get the reference's (the database's), last "
    "measured.",
    ["reference"],
    multiprocess_mode="livemostrecent",
)
CLOCK_SKEW_DURATIONS = _Counter(
    "lp_clock_skew_durations",
    "Durations across processes (task wait, grading latency) that came out negative, read as 0.",
    ["measure"],
)


# --- Read at scrape time --------------------------------------------------------------------

# What a reader returns: (label values, value) pairs.
Samples = Iterable[tuple[Sequence[str], float]]


class ScrapeMemo(dict[str, Any]):
    """One scrape's reads, by name: readers of several gauges fetch a value once per scrape."""

    def read(self, name: str, fetch: Callable[[], Any]) -> Any:
        if name not in self:
            self[name] = fetch()
        return self[name]


class ScrapeGauge:
    """A gauge whose samples are read when /metrics is scraped, from the readers subscribed
    to `hook` (each returns `Samples`)."""

    def __init__(self, name: str, documentation: str, labels: Sequence[str] = ()) -> None:
        self.name = name
        self.documentation = documentation
        self.labels = list(labels)
        self.hook: Hook[ScrapeMemo, Samples] = Hook(name)

    def family(self, memo: ScrapeMemo) -> GaugeMetricFamily:
        family = GaugeMetricFamily(self.name, self.documentation, labels=self.labels)
        for reader in list(self.hook._subscribers):
            try:
                for label_values, value in reader(memo):
                    family.add_metric(list(label_values), value)
            except Exception:
                logger.warning("Reading %s failed; its samples are left out", self.name)
        return family


CELERY_QUEUE_LENGTH = ScrapeGauge(
    "lp_celery_queue_length",
    "Messages waiting in each Celery queue, read from the broker.",
    ["queue"],
)
BROKER_UP = ScrapeGauge("lp_broker_up", "1 when the broker answered this scrape, else 0.")
OUTBOX_TASKS = ScrapeGauge(
    "lp_outbox_tasks",
    "Outbox rows (tasks not yet done): pending, or given_up after OUTBOX_MAX_ATTEMPTS.",
    ["state"],
)
OUTBOX_OLDEST_AGE = ScrapeGauge(
    "lp_outbox_oldest_task_age_seconds", "Age of the oldest pending outbox row (0: none)."
)
LEADERBOARD_REBUILD_AGE = ScrapeGauge(
    "lp_leaderboard_rebuild_age_seconds",
    "Seconds since the Redis leaderboards were last rebuilt in full (absent without them).",
)
SCRAPE_GAUGES = (
    CELERY_QUEUE_LENGTH,
    BROKER_UP,
    OUTBOX_TASKS,
    OUTBOX_OLDEST_AGE,
    LEADERBOARD_REBUILD_AGE,
)


class _ScrapeTime(Collector):
    def collect(self) -> Iterator[Metric]:
        memo = ScrapeMemo()
        for gauge in SCRAPE_GAUGES:
            yield gauge.family(memo)


# --- Exposition -----------------------------------------------------------------------------


def multiprocess_dir() -> str:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")


def exposition(*, scrape_time: bool = True) -> bytes:
    """The text a scrape answers: every process's recorded metrics (multiprocess mode: the
    files in PROMETHEUS_MULTIPROC_DIR; else this process's), and the scrape-time gauges."""
    registry = CollectorRegistry()
    registry.register(worker_registry())
    if scrape_time:
        registry.register(_ScrapeTime())
    return generate_latest(registry)


def worker_registry() -> CollectorRegistry:
    """The recorded metrics of this node's processes: in multiprocess mode the files in
    PROMETHEUS_MULTIPROC_DIR, else this process's. A Celery worker's metrics port serves it."""
    if not multiprocess_dir():
        return REGISTRY
    registry = CollectorRegistry()
    # prometheus_client's multiprocess functions have no annotations.
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return registry


def mark_process_dead(pid: int) -> None:
    """A gunicorn worker or a Celery pool process exited (its files stay; counts are kept)."""
    if multiprocess_dir():
        # As in worker_registry: no annotations.
        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]


def clear_multiprocess_dir() -> None:
    """At a server's start: files of an earlier run would be added to this one's."""
    directory = multiprocess_dir()
    if not directory:
        return
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        if name.endswith(".db"):
            os.remove(os.path.join(directory, name))


# --- Timing helpers -------------------------------------------------------------------------


def time_database_query(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    """A Django execute wrapper (connection.execute_wrappers) timing every statement."""
    started = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        alias = context["connection"].alias
        DB_QUERY_DURATION.labels(alias).observe(time.perf_counter() - started)


def install_database_timing(*, connection: Any, **kwargs: Any) -> None:
    """`connection_created` receiver: time this connection's statements. First in the list,
    so a `with connection.execute_wrapper(...)` that connected pops its own wrapper, not this."""
    if time_database_query not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, time_database_query)
