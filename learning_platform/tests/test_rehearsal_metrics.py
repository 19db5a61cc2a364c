"""bench/cluster_metrics.py: how the multi-node rehearsal decides that each metric moved, on
two canned scrapes of a web and a worker node (the rehearsal itself runs in CI, .ci/run)."""

import pytest

from bench.cluster_metrics import METRICS, increase, parse, table

WEB_BEFORE = """
# TYPE lp_http_request_duration_seconds histogram
lp_http_request_duration_seconds_count{route="readyz",method="GET",status="200"} 10
lp_http_request_duration_seconds_sum{route="readyz",method="GET",status="200"} 0.5
# TYPE lp_db_query_duration_seconds histogram
lp_db_query_duration_seconds_count{alias="default"} 20
lp_db_query_duration_seconds_sum{alias="default"} 0.1
# TYPE lp_cache_operation_duration_seconds histogram
lp_cache_operation_duration_seconds_count{operation="get"} 5
lp_cache_operation_duration_seconds_sum{operation="get"} 0.01
# TYPE lp_celery_queue_length gauge
lp_celery_queue_length{queue="celery"} 0
# TYPE lp_broker_up gauge
lp_broker_up 1
# TYPE lp_outbox_tasks gauge
lp_outbox_tasks{state="pending"} 0
lp_outbox_tasks{state="given_up"} 0
# TYPE lp_outbox_oldest_task_age_seconds gauge
lp_outbox_oldest_task_age_seconds 0
"""
WORKER_BEFORE = """
# TYPE lp_db_query_duration_seconds histogram
lp_db_query_duration_seconds_count{alias="default"} 3
# TYPE lp_celery_task_wait_seconds histogram
lp_celery_task_wait_seconds_count{task="grade"} 1
lp_celery_task_wait_seconds_sum{task="grade"} 0.2
# TYPE lp_celery_task_duration_seconds histogram
lp_celery_task_duration_seconds_count{task="grade",state="SUCCESS"} 1
lp_celery_task_duration_seconds_sum{task="grade",state="SUCCESS"} 0.3
"""


def _after(text: str, factor: int) -> str:
    """`text` with every sample's value times `factor` (a node that served load)."""
    lines = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            line = f"{name} {float(value) * factor:g}"
        lines.append(line)
    return "\n".join(lines)


WORKER_AFTER = (
    _after(WORKER_BEFORE, 3)
    + """
# TYPE lp_grading_latency_seconds histogram
lp_grading_latency_seconds_count{outcome="graded"} 40
lp_grading_latency_seconds_sum{outcome="graded"} 12.5
"""
)
WEB_AFTER = (
    _after(WEB_BEFORE, 4).replace("lp_broker_up 4", "lp_broker_up 1")
    + """
lp_celery_queue_length{queue="grading"} 2
# TYPE lp_leaderboard_rebuild_age_seconds gauge
lp_leaderboard_rebuild_age_seconds 42
# TYPE lp_clock_skew_seconds gauge
lp_clock_skew_seconds{reference="database"} -1800.2
"""
)


def _scrapes(web_after=WEB_AFTER, worker_after=WORKER_AFTER):
    before = {"web-a": parse(WEB_BEFORE), "worker-a": parse(WORKER_BEFORE)}
    after = {"web-a": parse(web_after), "worker-a": parse(worker_after)}
    return before, after


def _moved(before, after, *, age=300.0, queues=("celery", "grading")):
    lines, stuck = table(before, after, age=age, queues=list(queues))
    assert len(lines) == len(METRICS) + 1
    return stuck


def test_every_metric_moved_over_a_run_with_load():
    assert _moved(*_scrapes()) == []


def test_counters_that_did_not_grow_have_not_moved():
    before, after = _scrapes(worker_after=WORKER_BEFORE)

    assert set(_moved(before, after)) == {
        "DB queries, workers",
        "task waits",
        "task wait seconds",
        "task runs",
        "task run seconds",
        "gradings (latency count)",
        "grading latency seconds",
    }


def test_a_restarted_node_counts_from_zero():
    """web-a killed and started again: fewer requests than before, all of them new."""
    before = {"web-a": parse(WEB_BEFORE), "web-b": parse(WEB_BEFORE)}
    after = {"web-a": parse(_after(WEB_BEFORE, 0.5)), "web-b": parse(WEB_BEFORE)}
    [requests] = [m for m in METRICS if m.title.startswith("requests")]

    assert increase(before, after, requests) == 5


@pytest.mark.parametrize(
    ("change", "stuck"),
    [
        (("lp_leaderboard_rebuild_age_seconds 42", ""), "leaderboard rebuild age s"),
        (("lp_leaderboard_rebuild_age_seconds 42", "lp_leaderboard_rebuild_age_seconds 900"),
         "leaderboard rebuild age s"),
        (('lp_celery_queue_length{queue="grading"} 2', ""), "queue depth per queue"),
        (("lp_broker_up 1", "lp_broker_up 0"), "broker up"),
        (('lp_outbox_tasks{state="pending"} 0', ""), "outbox pending"),
    ],
)  # fmt: skip
def test_a_gauge_absent_or_out_of_bounds_after_the_run_is_stuck(change, stuck):
    before, _ = _scrapes()
    _, after = _scrapes(web_after=WEB_AFTER.replace(*change))

    assert _moved(before, after) == [stuck]


def test_emails_failed_is_reported_absent_or_not():
    failed = '# TYPE lp_emails_failed counter\nlp_emails_failed_total{outcome="will_retry"} 2\n'
    before, after = _scrapes()
    lines, _ = table(before, after, age=300, queues=["celery"])
    assert [line.split()[-3:] for line in lines if line.startswith("e-mails")] == [
        ["0", "(+0)", "yes"]
    ]

    after["worker-a"] = parse(WORKER_AFTER + failed)
    lines, stuck = table(before, after, age=300, queues=["celery"])
    assert [line.split()[-3:] for line in lines if line.startswith("e-mails")] == [
        ["2", "(+2)", "yes"]
    ]
    assert stuck == []


@pytest.mark.django_db
def test_the_rehearsal_reads_only_metrics_the_app_declares(client, scrape):
    client.get("/healthz")
    declared = scrape().families()

    samples = {m.sample for m in METRICS}
    unknown = {
        s
        for s in samples
        if s not in declared
        and not any(
            s.endswith(x) and s.removesuffix(x) in declared for x in ("_count", "_sum", "_total")
        )
    }
    assert unknown == set()


def test_a_node_not_scraped_both_times_is_stuck():
    before, after = _scrapes()
    del after["worker-a"]
    after["worker-b"] = parse(WORKER_AFTER)

    _, stuck = table(
        before, after, age=300, queues=["celery"], nodes=["web-a", "worker-a", "worker-b"]
    )

    assert stuck == ["worker-a not scraped", "worker-b not scraped"]
