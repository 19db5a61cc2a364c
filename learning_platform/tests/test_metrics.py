"""/metrics: closed to the public, and each kind of metric moves when its event happens."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import transaction

from learning_platform import celery as celery_module
from learning_platform import tasks
from learning_platform.cache import RedisCache
from learning_platform.models import UnsentTask
from learning_platform.tests.waiting import wait_until

pytestmark = pytest.mark.django_db

REQUESTS = "lp_http_request_duration_seconds_count"


def test_metrics_is_not_found_while_no_token_is_set(client, settings):
    settings.METRICS_TOKEN = ""

    response = client.get("/metrics", HTTP_AUTHORIZATION="Bearer ")

    assert response.status_code == 404
    assert response.json()["type"] == "not_found"


@pytest.mark.parametrize("authorization", [None, "Bearer wrong", "secret-token", "Basic secret"])
def test_metrics_is_not_found_without_the_token(client, settings, authorization):
    settings.METRICS_TOKEN = "secret-token"
    headers = {"HTTP_AUTHORIZATION": authorization} if authorization else {}

    response = client.get("/metrics", **headers)

    assert response.status_code == 404


def test_metrics_answers_the_prometheus_text_format_with_the_token(client, settings):
    settings.METRICS_TOKEN = "secret-token"

    response = client.get("/metrics", HTTP_AUTHORIZATION="Bearer secret-token")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    assert "no-cache" in response["Cache-Control"]
    assert b"# TYPE lp_http_request_duration_seconds histogram" in response.content


def test_a_request_is_counted_by_route_method_and_status(client, scrape):
    before = scrape()

    client.get("/healthz")
    client.get("/api/v1/lessons/no-such-lesson/")

    after = scrape()
    ok = {"route": "healthz", "method": "GET", "status": "200"}
    missing = {"route": "api/v1/lessons/<slug:slug>/", "method": "GET", "status": "404"}
    assert after.value(REQUESTS, **ok) == before.value(REQUESTS, **ok) + 1
    assert after.value(REQUESTS, **missing) == before.value(REQUESTS, **missing) + 1
    bucket = "lp_http_request_duration_seconds_bucket"
    assert after.value(bucket, **ok, le="+Inf") == after.value(REQUESTS, **ok)


def test_an_unknown_method_shares_one_label(client, scrape):
    before = scrape()

    client.generic("BREW", "/healthz")

    after = scrape()
    labels = {"route": "healthz", "method": "other", "status": "405"}
    assert after.value(REQUESTS, **labels) == before.value(REQUESTS, **labels) + 1


def test_database_time_is_observed_per_statement(client, scrape):
    before = scrape()

    client.get("/readyz")  # SELECT 1

    after = scrape()
    name = "lp_db_query_duration_seconds_count"
    assert after.value(name, alias="default") > before.value(name, alias="default")


def test_cache_time_is_observed_also_when_redis_does_not_answer(scrape):
    unreachable = RedisCache("redis://127.0.0.1:1/0", {"OPTIONS": {"SOCKET_TIMEOUT": 0.2}})
    before = scrape()

    assert unreachable.get("key", "default") == "default"

    after = scrape()
    name = "lp_cache_operation_duration_seconds_count"
    assert after.value(name, operation="get") == before.value(name, operation="get") + 1


def test_a_task_run_is_timed_by_task_and_state(scrape):
    before = scrape()

    tasks.send_unsent_tasks.delay()

    after = scrape()
    name = "lp_celery_task_duration_seconds_count"
    labels = {"task": "learning_platform.send_unsent_tasks", "state": "SUCCESS"}
    assert after.value(name, **labels) == before.value(name, **labels) + 1


def test_a_task_wait_is_timed_from_its_publish_to_its_start(scrape, memory_broker):
    before = scrape()

    tasks.send_unsent_tasks.delay()
    ran = memory_broker.run_queued()

    after = scrape()
    assert ran == ["learning_platform.send_unsent_tasks"]
    name = "lp_celery_task_wait_seconds_count"
    labels = {"task": "learning_platform.send_unsent_tasks"}
    assert after.value(name, **labels) == before.value(name, **labels) + 1


def test_queue_depth_and_outbox_backlog_are_read_at_scrape_time(
    scrape, memory_broker, django_capture_on_commit_callbacks
):
    queue = celery_module.app.conf.task_default_queue
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        tasks.send_unsent_tasks.delay_on_commit()
        tasks.send_unsent_tasks.delay_on_commit()

    scraped = scrape()

    assert scraped.value("lp_celery_queue_length", queue=queue) == 2
    assert scraped.value("lp_broker_up") == 1
    assert UnsentTask.objects.count() == 2
    assert scraped.value("lp_outbox_tasks", state="pending") == 2
    assert scraped.value("lp_outbox_tasks", state="given_up") == 0
    assert 0 <= scraped.value("lp_outbox_oldest_task_age_seconds") < 60


def test_an_unreachable_broker_is_reported_not_raised(scrape, unreachable_broker):
    scraped = scrape()

    assert scraped.value("lp_broker_up") == 0
    assert "lp_celery_queue_length" in scraped.declared


def test_leaderboard_rebuild_age_is_read_from_the_boards(scrape):
    from progress import boards

    if boards.enabled():
        boards.rebuild()
        assert 0 <= scrape().value("lp_leaderboard_rebuild_age_seconds") < 60
    else:  # no Redis: no boards to be old
        assert ("lp_leaderboard_rebuild_age_seconds", ()) not in scrape()


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_worker_serves_the_metrics_of_the_tasks_it_ran(live_worker):
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    def worker_samples() -> dict:
        with urllib.request.urlopen(live_worker.metrics_url, timeout=10) as response:  # noqa: S310
            text = response.read().decode()
        return {
            (sample.name, sample.labels.get("task"), sample.labels.get("state")): sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
        }

    name = "learning_platform.send_unsent_tasks"
    tasks.send_unsent_tasks.delay()
    key = ("lp_celery_task_duration_seconds_count", name, "SUCCESS")
    samples = wait_until(
        lambda: (found := worker_samples()).get(key) and found,
        timeout=30,
        failure=live_worker.log,
    )

    assert samples.get(("lp_celery_task_duration_seconds_count", name, "SUCCESS")) == 1, (
        live_worker.log()
    )
    assert samples.get(("lp_celery_task_wait_seconds_count", name, None)) == 1


def test_a_task_published_by_a_node_ahead_waits_zero_and_counts_as_clock_skew(
    scrape, memory_broker
):
    before = scrape()
    # The publishing node's clock 10 minutes ahead, the worker's right (both trusting their own).
    with time_machine.travel(datetime.now(UTC) + timedelta(minutes=10), tick=True):
        tasks.send_unsent_tasks.delay()
    memory_broker.run_queued()

    after = scrape()
    labels = {"task": "learning_platform.send_unsent_tasks"}
    wait_sum = "lp_celery_task_wait_seconds_sum"
    assert after.value(wait_sum, **labels) == before.value(wait_sum, **labels)
    skew = "lp_clock_skew_durations_total"
    assert after.value(skew, measure="task_wait") == before.value(skew, measure="task_wait") + 1
