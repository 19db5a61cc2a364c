"""deploy/grafana/learning-platform.json: a dashboard Grafana loads, reading only metrics the
app exports (checked against a live scrape of /metrics)."""

import json
import re
from pathlib import Path

import pytest

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "learning-platform.json"
SUFFIXES = ("_bucket", "_sum", "_count", "_total", "_created")

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def dashboard() -> dict:
    return json.loads(DASHBOARD.read_text())


def _panels(dashboard: dict) -> list[dict]:
    return [panel for panel in dashboard["panels"] if panel["type"] != "row"]


def test_the_dashboard_has_what_grafana_needs_to_import_it(dashboard):
    assert isinstance(dashboard["schemaVersion"], int)
    assert dashboard["schemaVersion"] >= 36
    assert dashboard["title"]
    assert dashboard["uid"]
    [variable] = dashboard["templating"]["list"]
    assert (variable["type"], variable["query"]) == ("datasource", "prometheus")
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in _panels(dashboard):
        assert panel["datasource"]["uid"] == "${datasource}"
        assert set(panel["gridPos"]) == {"h", "w", "x", "y"}
        assert panel["gridPos"]["x"] + panel["gridPos"]["w"] <= 24
        assert panel["targets"], panel["title"]
        assert len({target["refId"] for target in panel["targets"]}) == len(panel["targets"])


def test_every_expression_reads_only_metrics_the_app_exports(dashboard, client, scrape):
    client.get("/healthz")
    exported = scrape().families()

    def is_exported(name: str) -> bool:
        return name in exported or any(
            name.endswith(suffix) and name.removesuffix(suffix) in exported for suffix in SUFFIXES
        )

    used = {
        name
        for panel in _panels(dashboard)
        for target in panel["targets"]
        for name in re.findall(r"\b(lp_[a-z0-9_]+)", target["expr"])
    }
    assert len(used) >= 12
    assert sorted(name for name in used if not is_exported(name)) == []


def test_the_dashboard_shows_each_metric_the_issue_names(dashboard):
    text = json.dumps(dashboard)
    for metric in (
        "lp_http_request_duration_seconds",
        "lp_db_query_duration_seconds",
        "lp_cache_operation_duration_seconds",
        "lp_celery_queue_length",
        "lp_celery_task_wait_seconds",
        "lp_celery_task_duration_seconds",
        "lp_grading_latency_seconds",
        "lp_outbox_tasks",
        "lp_emails_failed_total",
        "lp_leaderboard_rebuild_age_seconds",
    ):
        assert metric in text
