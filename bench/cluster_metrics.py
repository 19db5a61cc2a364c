"""The multi-node rehearsal's look at the metrics (bench/cluster.py): each web node's `/metrics`
(through its own address, with the METRICS_TOKEN) and each worker node's metrics port, scraped
at the start of the load and after the backlog drained; a table of every metric
docs/operations.md lists, before and after per node kind, and whether each moved.

"Moved" per metric kind:

- a counter or a histogram's `_count` moved when it increased over the run, summed over the
  nodes of its kind; a node whose value went down was restarted (its counts start at zero,
  as Prometheus's `increase()` takes it), so its increase is its value after;
- a gauge read at scrape time is present on every web node after the run with a sane value
  (the bounds below); queue depths for every queue workers consume;
- e-mails failed is reported, not required to move: the rehearsal does not stop the mail
  server (the soak does), so it may stay 0 (absent: no send failed).
"""

from __future__ import annotations

import http.client
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from prometheus_client.parser import text_string_to_metric_families

# sample name -> {labels: value}, one node's scrape.
Scrape = dict[str, dict[frozenset[tuple[str, str]], float]]
# node name -> its scrape.
Scrapes = dict[str, Scrape]


def parse(text: str) -> Scrape:
    scrape: Scrape = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = frozenset(sample.labels.items())
            scrape.setdefault(sample.name, {})[labels] = sample.value
    return scrape


@dataclass(frozen=True)
class Metric:
    title: str
    kind: str  # "web" or "worker": the nodes that export it
    sample: str
    rule: str  # "increased", "present" or "reported"
    labels: dict[str, str] = field(default_factory=dict)  # only the samples with these
    # A gauge's sane values: from `low` to `high` (None: the rehearsal's age in seconds).
    low: float = 0.0
    high: float | None = float("inf")
    per_label: str = ""  # a gauge present for each value of this label (queue)


METRICS = (
    Metric("requests (route, status)", "web", "lp_http_request_duration_seconds_count",
           "increased"),
    Metric("request latency seconds", "web", "lp_http_request_duration_seconds_sum",
           "increased"),
    Metric("DB queries, web", "web", "lp_db_query_duration_seconds_count", "increased"),
    Metric("DB seconds, web", "web", "lp_db_query_duration_seconds_sum", "increased"),
    Metric("DB queries, workers", "worker", "lp_db_query_duration_seconds_count", "increased"),
    Metric("cache calls, web", "web", "lp_cache_operation_duration_seconds_count", "increased"),
    Metric("cache seconds, web", "web", "lp_cache_operation_duration_seconds_sum", "increased"),
    Metric("queue depth per queue", "web", "lp_celery_queue_length", "present",
           high=1e6, per_label="queue"),
    Metric("broker up", "web", "lp_broker_up", "present", low=1, high=1),
    Metric("task waits", "worker", "lp_celery_task_wait_seconds_count", "increased"),
    Metric("task wait seconds", "worker", "lp_celery_task_wait_seconds_sum", "increased"),
    Metric("task runs", "worker", "lp_celery_task_duration_seconds_count", "increased"),
    Metric("task run seconds", "worker", "lp_celery_task_duration_seconds_sum", "increased"),
    Metric("gradings (latency count)", "worker", "lp_grading_latency_seconds_count",
           "increased", {"outcome": "graded"}),
    Metric("grading latency seconds", "worker", "lp_grading_latency_seconds_sum", "increased"),
    Metric("outbox pending", "web", "lp_outbox_tasks", "present", {"state": "pending"},
           high=1e6),
    Metric("outbox oldest age s", "web", "lp_outbox_oldest_task_age_seconds", "present",
           high=None),
    Metric("e-mails failed", "worker", "lp_emails_failed_total", "reported"),
    Metric("leaderboard rebuild age s", "web", "lp_leaderboard_rebuild_age_seconds", "present",
           high=None),
    Metric("clock skew s (web-b ahead)", "web", "lp_clock_skew_seconds", "present", low=-1e5,
           high=1e5),
    Metric("durations read as 0 (skew)", "worker", "lp_clock_skew_durations_total", "reported"),
)  # fmt: skip


def _values(scrape: Scrape, metric: Metric) -> dict[frozenset[tuple[str, str]], float]:
    wanted = set(metric.labels.items())
    return {k: v for k, v in scrape.get(metric.sample, {}).items() if wanted <= k}


def total(scrape: Scrape, metric: Metric) -> float:
    return sum(_values(scrape, metric).values())


def increase(before: Scrapes, after: Scrapes, metric: Metric) -> float:
    """The counter's increase summed over the nodes; a node restarted counts from zero."""
    grown = 0.0
    for node, scrape in after.items():
        now, then = total(scrape, metric), total(before.get(node, {}), metric)
        grown += now - then if now >= then else now
    return grown


def judge(
    metric: Metric, before: Scrapes, after: Scrapes, *, age: float, queues: list[str]
) -> tuple[bool, str, str]:
    """(moved, before, after) of `metric` over the nodes of its kind; `before` and `after`
    hold only those nodes; `age` is the rehearsal's age in seconds, `queues` the queues
    workers consume."""
    if metric.rule in ("increased", "reported"):
        then = sum(total(s, metric) for s in before.values())
        now = sum(total(s, metric) for s in after.values())
        grown = increase(before, after, metric)
        ok = grown > 0 or metric.rule == "reported"
        return ok, f"{then:g}", f"{now:g} (+{grown:g})"
    high = age if metric.high is None else metric.high

    def shown(scrapes: Scrapes) -> str:
        values = [v for s in scrapes.values() for v in _values(s, metric).values()]
        return f"{min(values):g}..{max(values):g}" if values else "absent"

    ok = bool(after)
    for scrape in after.values():
        values = _values(scrape, metric)
        if metric.per_label:
            seen = {dict(k)[metric.per_label] for k in values}
            ok = ok and set(queues) <= seen
        ok = ok and bool(values) and all(metric.low <= v <= high for v in values.values())
    return ok, shown(before), shown(after)


def table(
    before: Scrapes, after: Scrapes, *, age: float, queues: list[str], nodes: Sequence[str] = ()
) -> tuple[list[str], list[str]]:
    """The printed table's lines, and the titles of the metrics that did not move (and the
    `nodes` not scraped both times)."""
    lines = [f"{'metric':<26} {'nodes':<6} {'rule':<13} {'before':>14}  {'after':>22}  moved"]
    stuck = [f"{n} not scraped" for n in nodes if n not in before or n not in after]
    for metric in METRICS:
        kind_before = {n: s for n, s in before.items() if n.startswith(metric.kind)}
        kind_after = {n: s for n, s in after.items() if n.startswith(metric.kind)}
        ok, then, now = judge(metric, kind_before, kind_after, age=age, queues=queues)
        lines.append(f"{metric.title:<26} {metric.kind:<6} {metric.rule:<13} {then:>14}  "
                     f"{now:>22}  {'yes' if ok else 'NO'}")  # fmt: skip
        if not ok:
            stuck.append(metric.title)
    return lines, stuck


def scrape_node(address: str, *, token: str = "", host: str = "", timeout: float = 10) -> Scrape:
    """GET /metrics at `address` (host:port): a web node's with the token and a Host in
    ALLOWED_HOSTS, a worker's metrics port without."""
    name, port = address.rsplit(":", 1)
    conn = http.client.HTTPConnection(name, int(port), timeout=timeout)
    headers = {"Authorization": f"Bearer {token}", "Host": host} if token else {}
    try:
        conn.request("GET", "/metrics", headers=headers)
        response = conn.getresponse()
        body = response.read().decode()
    finally:
        conn.close()
    if response.status != 200:
        raise RuntimeError(f"GET http://{address}/metrics answered {response.status}")
    return parse(body)


def scrape_nodes(nodes: dict[str, str], *, token: str, host: str, wait: float = 0) -> Scrapes:
    """Every node's scrape (name -> address:port; web nodes' names start with "web"); a node
    that does not answer within `wait` seconds is left out (and said so)."""
    scrapes: Scrapes = {}
    for name, address in nodes.items():
        deadline = time.monotonic() + wait
        while True:
            try:
                web = name.startswith("web")
                scrapes[name] = scrape_node(address, token=token if web else "", host=host)
                break
            except (OSError, RuntimeError) as error:
                if time.monotonic() >= deadline:
                    print(f"  metrics: {name} at {address} not scraped: {error}")
                    break
                time.sleep(0.5)
    return scrapes
