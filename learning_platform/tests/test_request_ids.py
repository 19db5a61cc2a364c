"""Request ids: answered, logged with each request and task, carried through the outbox."""

import json
import logging
import re

import pytest
from django.db import transaction

from learning_platform import tasks
from learning_platform.models import UnsentTask
from learning_platform.observe import RequestIdFilter, json_formatter

pytestmark = pytest.mark.django_db


def as_json_line(record: logging.LogRecord) -> dict:
    """The line LOG_FORMAT=json writes for `record`."""
    RequestIdFilter().filter(record)
    line = json_formatter().format(record)
    assert "\n" not in line
    return json.loads(line)


def test_a_request_gets_a_new_id_in_the_response_header(client):
    first = client.get("/healthz")["X-Request-ID"]
    second = client.get("/healthz")["X-Request-ID"]

    assert re.fullmatch(r"[0-9a-f]{32}", first)
    assert first != second


def test_a_valid_incoming_request_id_is_echoed(client):
    response = client.get("/healthz", HTTP_X_REQUEST_ID="lb-7f3a.42:abc_9")

    assert response["X-Request-ID"] == "lb-7f3a.42:abc_9"


@pytest.mark.parametrize("given", ["has space", "x" * 129, "<script>", "-leading-dash", ""])
def test_an_invalid_incoming_request_id_is_replaced(client, given):
    response = client.get("/healthz", HTTP_X_REQUEST_ID=given)

    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])


def test_error_answers_carry_the_request_id_too(client):
    response = client.get("/api/v1/lessons/no-such-lesson/", HTTP_X_REQUEST_ID="req-404")

    assert response.status_code == 404
    assert response["X-Request-ID"] == "req-404"


def test_each_request_writes_one_json_line(client, caplog):
    with caplog.at_level(logging.INFO, logger="learning_platform.request"):
        client.get("/api/v1/lessons/no-such-lesson/", HTTP_X_REQUEST_ID="req-1")

    [record] = [r for r in caplog.records if r.name == "learning_platform.request"]
    line = as_json_line(record)
    assert line["request_id"] == "req-1"
    assert line["route"] == "api/v1/lessons/<slug:slug>/"
    assert line["path"] == "/api/v1/lessons/no-such-lesson/"
    assert line["method"] == "GET"
    assert line["status"] == 404
    assert line["duration_ms"] >= 0
    assert line["user_id"] == "anonymous"
    assert line["level"] == "INFO"
    assert line["logger"] == "learning_platform.request"
    assert "time" in line


def test_a_signed_in_request_logs_its_user_id(user_client, user, caplog):
    with caplog.at_level(logging.INFO, logger="learning_platform.request"):
        user_client.get("/api/v1/me/progress")

    [record] = [r for r in caplog.records if r.name == "learning_platform.request"]
    assert as_json_line(record)["user_id"] == user.pk


def test_records_written_during_a_request_carry_its_id(client, caplog):
    with caplog.at_level(logging.INFO):
        client.get("/healthz", HTTP_X_REQUEST_ID="req-2")

    record = next(r for r in caplog.records if r.name == "learning_platform.request")
    assert as_json_line(record)["request_id"] == "req-2"


def test_a_task_caused_by_a_request_logs_the_request_id(
    client, user, caplog, django_capture_on_commit_callbacks
):
    # A comment's notification task, run in-process at the commit of the request.
    from community.tests.factories import CommentFactory
    from lessons.tests.factories import LessonFactory

    lesson = LessonFactory()
    top = CommentFactory(lesson=lesson)
    client.force_login(user)
    with (
        caplog.at_level(logging.INFO, logger="learning_platform.task"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(
            f"/api/v1/lessons/{lesson.slug}/comments/",
            {"body": "agreed", "parent": top.id},
            content_type="application/json",
            HTTP_X_REQUEST_ID="req-comment",
        )

    assert response.status_code == 201
    lines = [as_json_line(r) for r in caplog.records if r.name == "learning_platform.task"]
    assert lines, "the comment caused no task"
    for line in lines:
        assert line["request_id"] == "req-comment"
        assert line["state"] == "SUCCESS"
        assert line["duration_ms"] >= 0
        assert line["task_id"]


def test_the_outbox_row_keeps_the_request_id_and_its_message_carries_it(
    client, user, memory_broker, caplog, django_capture_on_commit_callbacks
):
    from community.tests.factories import CommentFactory
    from lessons.tests.factories import LessonFactory

    lesson = LessonFactory()
    top = CommentFactory(lesson=lesson)
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/api/v1/lessons/{lesson.slug}/comments/",
            {"body": "agreed", "parent": top.id},
            content_type="application/json",
            HTTP_X_REQUEST_ID="req-outbox",
        )
    rows = list(UnsentTask.objects.all())
    assert rows
    assert {row.request_id for row in rows} == {"req-outbox"}

    with caplog.at_level(logging.INFO, logger="learning_platform.task"):
        ran = memory_broker.run_queued()

    assert ran
    lines = [as_json_line(r) for r in caplog.records if r.name == "learning_platform.task"]
    assert {line["request_id"] for line in lines} == {"req-outbox"}
    assert all(line["wait_ms"] is not None for line in lines)


def test_the_sweep_publishes_a_kept_row_with_its_request_id(memory_broker):
    with transaction.atomic():
        tasks.send_unsent_tasks.delay_on_commit()
    UnsentTask.objects.update(request_id="req-kept")
    memory_broker.flush()

    from learning_platform import outbox

    UnsentTask.objects.update(due_at=UnsentTask.objects.get().created_at)
    assert outbox.send_unsent_tasks() == 1

    [(name, _, _, headers)] = memory_broker.queued()
    assert name == "learning_platform.send_unsent_tasks"
    assert headers["request_id"] == "req-kept"
    assert isinstance(headers["published_at"], float)
