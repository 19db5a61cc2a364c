"""learning_platform.db.update_rows: many rows set in one statement, on both databases."""

import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.test.utils import CaptureQueriesContext

from exercises.models import Submission
from exercises.tests.factories import SubmissionFactory
from learning_platform.db import json_text, update_rows

pytestmark = pytest.mark.django_db

GRADED_AT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
# Quotes, backslashes, a line break and non-ASCII inside the documents' strings.
AWKWARD = {"rows": [{"name": 'say "hi"\\ \n and\tgo', "é": ["ü", None, 1.5, True]}]}


def _write(rows, **kwargs):
    return update_rows(
        Submission,
        keys=["id"],
        fields=["score", "summary", "feedback", "graded_at"],
        rows=rows,
        **kwargs,
    )


def test_sets_each_rows_own_values_in_one_statement():
    first, second, third = SubmissionFactory.create_batch(3)

    with CaptureQueriesContext(connection) as captured:
        _write(
            [
                (first.id, 0.5, "half", AWKWARD, GRADED_AT),
                (third.id, None, "", {}, None),
            ]
        )

    assert len(captured) == 1
    first.refresh_from_db()
    third.refresh_from_db()
    second.refresh_from_db()
    assert (first.score, first.summary, first.feedback, first.graded_at) == (
        0.5,
        "half",
        AWKWARD,
        GRADED_AT,
    )
    assert (third.score, third.summary, third.feedback, third.graded_at) == (None, "", {}, None)
    assert second.summary == ""  # a row not listed is left as it was
    assert second.graded_at is None


@pytest.mark.parametrize("count", [1, 2])
def test_a_column_of_only_nulls_and_json_that_is_not_an_object_are_written(count):
    submissions = SubmissionFactory.create_batch(count)

    _write([(s.id, None, "x", ["a", {"b": "line\nbreak"}], GRADED_AT) for s in submissions])

    for submission in submissions:
        submission.refresh_from_db()
        assert submission.score is None
        assert submission.feedback == ["a", {"b": "line\nbreak"}]


def test_the_where_condition_and_returning_list_select_what_was_written():
    kept, written = SubmissionFactory.create_batch(2)
    Submission.objects.filter(pk=kept.pk).update(status="graded")

    returned = _write(
        [(kept.id, 1.0, "no", {}, GRADED_AT), (written.id, 1.0, "yes", {}, GRADED_AT)],
        where=f"{connection.ops.quote_name(Submission._meta.db_table)}.status = %s",
        where_params=["queued"],
        returning=connection.ops.quote_name("id"),
    )

    assert returned == [(written.id,)]
    kept.refresh_from_db()
    assert kept.summary != "no"


def test_the_statement_text_is_the_same_for_any_number_of_rows_above_one_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite takes a VALUES list, one placeholder per value")
    submissions = SubmissionFactory.create_batch(3)

    texts = set()
    for count in (2, 3):
        with CaptureQueriesContext(connection) as captured:
            _write([(s.id, 1.0, "s", {"n": count}, GRADED_AT) for s in submissions[:count]])
        texts.add(captured[0]["sql"].split(" FROM ")[0])

    assert len(texts) == 1


@pytest.mark.parametrize(
    "value",
    [AWKWARD, {"n": [0, -1, 2**62, 0.1, 1e300, None, False]}, {1: "a", None: "b"}, [], "é"],
)
def test_json_text_writes_the_same_document_as_json_dumps(value):
    assert json.loads(json_text(value)) == json.loads(json.dumps(value))


def test_json_text_refuses_what_json_dumps_refuses():
    with pytest.raises(TypeError):
        json_text({"at": GRADED_AT})
    with pytest.raises(TypeError):
        json_text({"amount": Decimal("1.5")})


def test_json_text_writes_with_a_fields_own_encoder():
    def dumps(value):
        return json.dumps(value, cls=DjangoJSONEncoder)

    assert json.loads(json_text({"at": GRADED_AT}, dumps)) == {"at": "2026-11-30T12:00:00Z"}


def test_the_apps_register_the_tables_that_grow_with_learners():
    from learning_platform.db import TABLES_THAT_GROW_WITH_LEARNERS as registered

    assert registered == {
        "accounts_user",
        "progress_xpaward",
        "progress_lessoncompletion",
        "progress_learnerstats",
        "progress_learnerdayxp",
        "progress_learnerperiodxp",
        "progress_activityday",
        "leagues_leaguer",
        "leagues_membership",
        "achievements_achievementunlock",
        "community_comment",
        "exercises_submission",
        "reviews_reviewcard",
        "reviews_reviewlog",
        "lti_ltiaccount",
        "lti_gradelink",
        "lti_scorepost",
        "lti_usednonce",
        "xapi_statement",
    }
