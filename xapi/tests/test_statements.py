"""Learning records: answers to checks and completed lessons reach a (fake) LRS as xAPI
statements, once each, whatever the LRS does."""

import logging
import uuid
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from exercises.events import CheckAnswered
from exercises.tests.conftest import checks_of as _checks
from exercises.tests.conftest import right_answer
from xapi import services, statements, tasks
from xapi.models import Statement
from xapi.tests.conftest import shape_errors

pytestmark = pytest.mark.django_db


def _answer(client, check, body):
    response = client.post(
        reverse("check-answers", args=[check.pk]), {"answer": body}, format="json"
    )
    assert response.status_code == 200
    return response


def test_an_answer_is_sent_as_an_answered_statement(
    user_client, user, lesson, fake_lrs, django_capture_on_commit_callbacks
):
    first = _checks(lesson)[0]
    with django_capture_on_commit_callbacks(execute=True):
        _answer(user_client, first, {"value": "3072"})

    [sent] = fake_lrs.stored.values()
    assert shape_errors(sent) == []
    assert sent["verb"]["id"] == "http://adlnet.gov/expapi/verbs/answered"
    assert sent["actor"]["account"] == {"homePage": "http://127.0.0.1:8000", "name": str(user.pk)}
    assert sent["object"]["id"] == f"http://127.0.0.1:8000/lessons/head-size#check-{first.pk}"
    assert sent["result"]["success"] is False
    assert fake_lrs.requests[0]["version"] == "1.0.3"
    assert Statement.objects.get().sent_at is not None


def test_passing_the_last_check_also_sends_the_lessons_completion(
    user_client, lesson, fake_lrs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for check in _checks(lesson):
            _answer(user_client, check, right_answer(check))

    lesson_verbs = sorted(
        s["verb"]["display"]["en-US"]
        for s in fake_lrs.stored.values()
        if "/lessons/head-size" in s["object"]["id"]
    )
    assert lesson_verbs == ["answered", "answered", "completed"]
    assert all(shape_errors(s) == [] for s in fake_lrs.stored.values())
    completed = next(
        s for s in fake_lrs.stored.values() if s["verb"]["display"]["en-US"] == "completed"
    )
    assert completed["object"]["definition"]["type"] == "http://adlnet.gov/expapi/activities/lesson"
    assert completed["result"] == {"completion": True, "success": True}


def test_statement_ids_are_uuid5_of_the_source_row(user_client, user, lesson, fake_lrs):
    first = _checks(lesson)[0]
    _answer(user_client, first, {"value": "3072"})

    row = Statement.objects.get()
    assert row.id.version == 5
    assert row.id == statements.statement_id(
        "exercises_checkanswer",
        f"{user.pk}:{first.pk}:{row.body['timestamp'].replace('Z', '+00:00')}",
    )


def test_nothing_is_kept_while_no_lrs_is_configured(user_client, lesson, settings):
    settings.XAPI_LRS_URL = ""
    _answer(user_client, _checks(lesson)[0], {"value": "64"})

    assert Statement.objects.count() == 0


def test_an_lrs_outage_delays_statements_and_loses_none(
    user_client, lesson, fake_lrs, django_capture_on_commit_callbacks
):
    fake_lrs.down = True
    with django_capture_on_commit_callbacks(execute=False):
        for check in _checks(lesson):
            _answer(user_client, check, right_answer(check))
    with pytest.raises(services.LrsUnavailable):
        services.send_statements()
    # Two answers and the completion; the first pass also unlocked an achievement.
    kept = Statement.objects.count()
    assert kept >= 3
    assert services.unsent_count() == kept

    fake_lrs.down = False
    assert tasks.send_statements.run() == kept

    assert services.unsent_count() == 0
    assert len(fake_lrs.stored) == kept


def test_replaying_every_statement_twice_stores_each_once(
    user_client, lesson, fake_lrs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for check in _checks(lesson):
            _answer(
                user_client,
                check,
                {"value": "1"} if check.spec["type"] == "numeric" else right_answer(check),
            )
            _answer(user_client, check, right_answer(check))
    rows = Statement.objects.count()

    for _ in range(2):
        Statement.objects.update(sent_at=None)
        tasks.send_statements.run()

    assert len(fake_lrs.stored) == rows
    assert services.unsent_count() == 0
    assert all(shape_errors(s) == [] for s in fake_lrs.stored.values())


def test_a_conflict_is_logged_once_and_not_retried(
    user_client, lesson, fake_lrs, caplog, django_capture_on_commit_callbacks
):
    first, second = _checks(lesson)
    with django_capture_on_commit_callbacks(execute=False):
        _answer(user_client, first, {"value": "3072"})
        _answer(user_client, second, right_answer(second))
    clash = Statement.objects.order_by("created_at").first()
    fake_lrs.stored[str(clash.id)] = {
        **clash.body,
        "verb": {"id": "http://example.com/other", "display": {"en-US": "x"}},
    }

    with caplog.at_level(logging.WARNING, logger="xapi.services"):
        sent = services.send_statements()
        again = services.send_statements()

    assert (sent.stored, sent.conflicts) == (1, 1)
    assert (again.stored, again.conflicts) == (0, 0)
    assert [r.getMessage() for r in caplog.records if "conflicts" in r.getMessage()] == [
        f"xapi statement {clash.id} conflicts with the LRS's copy: not resent"
    ]
    assert Statement.objects.get(pk=clash.pk).last_error.startswith("409")


def test_an_answer_announced_again_stores_no_second_statement(user, lesson, fake_lrs):
    event = CheckAnswered(
        user_id=user.pk,
        check_id=_checks(lesson)[0].pk,
        lesson_id=lesson.pk,
        quest_id=lesson.quest_id,
        correct=False,
        first_try=True,
        revealed=False,
        passed_before=False,
        answered_at=datetime(2026, 1, 5, 10, 0, tzinfo=UTC),
    )
    services.record_check_answer(event)
    services.record_check_answer(event)

    assert Statement.objects.count() == 1
    assert isinstance(Statement.objects.get().id, uuid.UUID)


def test_the_fake_lrs_refuses_what_ralph_refuses(fake_lrs):
    import requests

    statement = statements.completed(
        statement=statements.statement_id("t", "1"),
        site="http://127.0.0.1:8000",
        user_id=1,
        lesson_slug="x",
        at=datetime(2026, 1, 5, tzinfo=UTC),
    )
    bad = {**statement, "verb": {"id": "completed"}}

    assert shape_errors(statement) == []
    assert shape_errors(bad) != []
    assert requests.post(f"{fake_lrs.url}/statements", json=[bad], timeout=5).status_code == 400
