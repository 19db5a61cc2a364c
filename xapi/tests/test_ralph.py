"""Our statements against a real LRS: Ralph (openfun/ralph) with its file backend, started by
the test run (xapi/tests/ralph_lrs.py). Every kind is stored once; replays are duplicates
Ralph drops; a conflict is logged once and not sent again."""

import logging
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from exercises.tests.conftest import answer, checks_of, right_answer
from reviews.tests.conftest import review, wrong_answer
from xapi import services, statements, tasks
from xapi.models import Statement
from xapi.tests.conftest import shape_errors
from xapi.tests.ralph_lrs import running_ralph, unavailable

pytestmark = pytest.mark.django_db

# What Ralph adds to a statement it stores.
RALPH_FIELDS = {"stored", "authority"}


@pytest.fixture(scope="session")
def ralph_server(tmp_path_factory):
    reason = unavailable()
    if reason is not None:
        pytest.skip(f"Ralph's LRS cannot run here: {reason}")
    with running_ralph(tmp_path_factory.mktemp("ralph")) as lrs:
        yield lrs


@pytest.fixture
def ralph(ralph_server, settings):
    ralph_server.forget()
    settings.XAPI_LRS_URL = ralph_server.xapi_url
    settings.XAPI_LRS_USERNAME = ralph_server.username
    settings.XAPI_LRS_PASSWORD = ralph_server.password
    return ralph_server


def _every_kind(client, lesson, django_capture_on_commit_callbacks):
    """A learner's answers (one wrong), the lesson completed, an achievement, a level, and a
    review of that card a month later: every kind of statement, kept and not sent yet."""
    start = timezone.now()
    first, second = checks_of(lesson)
    with django_capture_on_commit_callbacks(execute=False):
        with time_machine.travel(start, tick=False):
            assert answer(client, second, wrong_answer(second)).status_code == 200
            for check in (first, second):
                assert answer(client, check, right_answer(check)).status_code == 200
        with time_machine.travel(start + timedelta(days=30), tick=False):
            response = review(client, second, right_answer(second))
    assert response.json()["scheduled"] is True


def _kinds(rows):
    return {(row.verb, row.body["object"]["definition"]["type"].rsplit("/", 1)[-1]) for row in rows}


def test_every_kind_is_stored_once_and_replays_store_nothing(
    user_client, lesson, ralph, django_capture_on_commit_callbacks
):
    _every_kind(user_client, lesson, django_capture_on_commit_callbacks)
    rows = list(Statement.objects.all())
    assert _kinds(rows) == {
        ("answered", "question"),
        ("completed", "lesson"),
        ("earned", "badge"),
    }
    assert sum("review-rating" in str(row.body.get("result")) for row in rows) == 1
    assert sum(row.body["object"]["id"].endswith("/levels/1") for row in rows) == 1
    # Ralph's xAPI statement model (what its profiles' models extend) on every one we send.
    assert {str(row.pk): shape_errors(row.body) for row in rows} == {
        str(row.pk): [] for row in rows
    }

    assert tasks.send_statements.run() == len(rows)
    for _ in range(2):
        Statement.objects.update(sent_at=None)
        tasks.send_statements.run()

    assert ralph.counts() == (len(rows), 0)
    assert services.unsent_count() == 0
    assert not Statement.objects.exclude(last_error="").exists()
    ours = {str(row.pk): row.body for row in rows}
    for stored in ralph.stored():
        assert {k: v for k, v in stored.items() if k not in RALPH_FIELDS} == ours[stored["id"]]


def test_a_conflict_with_ralphs_copy_is_logged_once_and_not_sent_again(
    user_client, lesson, ralph, caplog, django_capture_on_commit_callbacks
):
    first = checks_of(lesson)[0]
    with django_capture_on_commit_callbacks(execute=False):
        answer(user_client, first, {"value": "3072"})
    row = Statement.objects.get()
    other = {**row.body, "result": {**row.body["result"], "success": True}}
    assert ralph.post([other]).status_code == 200

    with caplog.at_level(logging.WARNING, logger="xapi.services"):
        sent = services.send_statements()
        again = services.send_statements()

    assert (sent.stored, sent.conflicts) == (0, 1)
    assert (again.stored, again.conflicts) == (0, 0)
    assert [r.getMessage() for r in caplog.records if "conflicts" in r.getMessage()] == [
        f"xapi statement {row.pk} conflicts with the LRS's copy: not resent"
    ]
    assert Statement.objects.get().last_error.startswith("409")
    assert ralph.counts() == (1, 0)


def test_statement_ids_are_what_ralph_answers_with(user_client, lesson, ralph):
    first = checks_of(lesson)[0]
    answer(user_client, first, {"value": "3072"})
    row = Statement.objects.get()

    response = ralph.post([row.body])

    assert response.json() == [str(row.pk)]
    assert row.pk == statements.statement_id(
        "exercises_checkanswer",
        f"{row.user_id}:{first.pk}:{row.body['timestamp'].replace('Z', '+00:00')}",
    )
