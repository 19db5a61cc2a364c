"""The one clock (learning_platform/clock.py): a node's wall clock checked against the
database's. The database's clock is this machine's real one; time-machine moves only the
node's (Python's) clock, as a drifting node's would be."""

from datetime import UTC, datetime, timedelta
from unittest.mock import patch

import pytest
import time_machine
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext
from prometheus_client import REGISTRY

from learning_platform import clock

pytestmark = pytest.mark.django_db


def _skew_durations(measure: str) -> float:
    return REGISTRY.get_sample_value("lp_clock_skew_durations_total", {"measure": measure}) or 0.0


def test_now_is_the_databases_time_on_a_node_ten_minutes_ahead(database_clock):
    real = datetime.now(UTC)

    with time_machine.travel(real + timedelta(minutes=10), tick=True):
        corrected = clock.now()

    assert abs((corrected - real).total_seconds()) < 2


def test_now_is_the_databases_time_on_a_node_ten_minutes_behind(database_clock):
    real = datetime.now(UTC)

    with time_machine.travel(real - timedelta(minutes=10), tick=True):
        corrected = clock.timestamp()

    assert abs(corrected - real.timestamp()) < 2


def test_an_offset_within_the_tolerance_is_not_applied(database_clock):
    assert clock.applied_offset() == 0.0
    assert abs(clock.reading().offset) < clock.TOLERANCE_SECONDS


def test_the_offset_is_measured_once_per_refresh_not_per_call(database_clock):
    with CaptureQueriesContext(connection) as queries:
        for _ in range(5):
            clock.now()

    reads = [q for q in queries.captured_queries if "SELECT" in q["sql"].upper()]
    assert len(reads) == 1


def test_the_offset_is_measured_again_after_the_refresh_interval(database_clock):
    clock.now()
    with (
        time_machine.travel(datetime.now(UTC) + timedelta(minutes=10), tick=True),
        patch("learning_platform.clock.time.monotonic", return_value=10**9),
    ):
        corrected = clock.now()

    assert abs((corrected - datetime.now(UTC)).total_seconds()) < 2


def test_a_database_that_does_not_answer_leaves_the_nodes_own_time(database_clock):
    node = datetime(2031, 5, 4, 12, 0, tzinfo=UTC)
    with (
        time_machine.travel(node, tick=False),
        patch.object(connection, "cursor", side_effect=OperationalError("connection refused")),
    ):
        assert clock.now() == node
        assert clock.state() == "unknown"


def test_without_the_database_clock_the_nodes_own_time_is_used(settings):
    settings.CLOCK_FROM_DATABASE = False
    node = datetime(2031, 5, 4, 12, 0, tzinfo=UTC)

    with time_machine.travel(node, tick=False), CaptureQueriesContext(connection) as queries:
        assert clock.now() == node
        assert clock.state() == "node"
    assert queries.captured_queries == []


def test_the_skew_gauge_holds_the_last_measured_offset(database_clock):
    with time_machine.travel(datetime.now(UTC) + timedelta(minutes=10), tick=True):
        clock.now()

    assert REGISTRY.get_sample_value(
        "lp_clock_skew_seconds", {"reference": "database"}
    ) == pytest.approx(-600, abs=2)


def test_a_negative_duration_reads_as_zero_and_is_counted():
    before = _skew_durations("grading_latency")

    assert clock.elapsed(-8.5, measure="grading_latency") == 0.0
    assert _skew_durations("grading_latency") == before + 1


def test_a_duration_negative_by_less_than_the_noise_reads_as_zero_uncounted():
    before = _skew_durations("task_wait")

    assert clock.elapsed(-0.002, measure="task_wait") == 0.0
    assert _skew_durations("task_wait") == before


def test_a_positive_duration_is_kept_and_not_counted():
    before = _skew_durations("task_wait")

    assert clock.elapsed(1.25, measure="task_wait") == 1.25
    assert _skew_durations("task_wait") == before
