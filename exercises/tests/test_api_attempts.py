"""A learner's attempts at an exercise as the API answers them after a reload: newest first,
each with its score and per-cell feedback, expected values once passed, and the editors'
column hints beside the cells that need another look."""

import pytest
from django.urls import reverse

from exercises.tests.conftest import FAILING_CSV, GOOD_CSV, post_table
from exercises.tests.factories import SubmissionFactory

pytestmark = pytest.mark.django_db

N_INNER_HINT = "GPT-2 has no n_inner: it means 4 x n_embd (3072 for GPT-2)."
# GPT-2 copied faithfully from its config.json: no n_inner, so no intermediate size.
GPT2_WITHOUT_N_INNER = (
    "model,d_model,n_layers,n_heads,vocab_size,intermediate_size\n"
    "GPT-2,768,12,12,50257,\n"
    'Llama 3 8B,"4,096",32,32,128256,14336\n'
    "Mistral-7B-v0.1,4096,32,32,32000,14336\n"
)


def attempts(client, exercise):
    response = client.get(reverse("exercise-submissions", args=[exercise.id]))
    assert response.status_code == 200
    return response.json()["results"]


def submit(client, exercise, capture, content):
    with capture(execute=True):
        response = post_table(client, exercise, content)
    assert response.status_code == 202
    return response.json()["id"]


def cells(attempt):
    return [cell for row in attempt["feedback"]["rows"] for cell in row["cells"]]


def set_hint(exercise, column, hint):
    exercise.columns.filter(name=column).update(hint=hint)


def test_attempts_are_listed_newest_first_each_with_its_score_and_feedback(
    user_client, exercise, django_capture_on_commit_callbacks
):
    failed = submit(user_client, exercise, django_capture_on_commit_callbacks, FAILING_CSV)
    passed = submit(user_client, exercise, django_capture_on_commit_callbacks, GOOD_CSV)

    latest, earlier = attempts(user_client, exercise)

    assert (latest["id"], latest["status"], latest["passed"], latest["score"]) == (
        passed, "graded", True, 1.0,
    )  # fmt: skip
    assert (earlier["id"], earlier["passed"]) == (failed, False)
    assert earlier["score"] == pytest.approx(11 / 15, abs=1e-4)
    assert earlier["feedback"]["rows"][0]["cells"][1] == {
        "column": "n_layers",
        "submitted": "24",
        "verdict": "incorrect",
        "expected": 12,
        "hint": None,
    }


def test_expected_values_stay_hidden_in_the_list_until_the_learner_passes(
    user_client, exercise, django_capture_on_commit_callbacks
):
    submit(user_client, exercise, django_capture_on_commit_callbacks, FAILING_CSV)

    [failed] = attempts(user_client, exercise)

    assert failed["expected_revealed"] is False
    assert {cell["expected"] for cell in cells(failed)} == {None}


def test_passing_reveals_expected_values_on_every_earlier_attempt(
    user_client, exercise, django_capture_on_commit_callbacks
):
    submit(user_client, exercise, django_capture_on_commit_callbacks, FAILING_CSV)
    submit(user_client, exercise, django_capture_on_commit_callbacks, GOOD_CSV)

    listed = attempts(user_client, exercise)

    assert [a["expected_revealed"] for a in listed] == [True, True]
    assert None not in {cell["expected"] for cell in cells(listed[1])}


def test_an_attempt_not_yet_graded_is_listed_without_feedback(user_client, user, exercise):
    SubmissionFactory(user=user, exercise=exercise)

    [queued] = attempts(user_client, exercise)

    assert (queued["status"], queued["feedback"], queued["expected_revealed"]) == (
        "queued", None, False,
    )  # fmt: skip


def test_an_empty_cell_carries_its_columns_hint(
    user_client, exercise, django_capture_on_commit_callbacks
):
    set_hint(exercise, "intermediate_size", N_INNER_HINT)
    submit(user_client, exercise, django_capture_on_commit_callbacks, GPT2_WITHOUT_N_INNER)

    [attempt] = attempts(user_client, exercise)

    gpt2 = attempt["feedback"]["rows"][0]["cells"]
    assert (gpt2[4]["verdict"], gpt2[4]["hint"]) == ("missing", N_INNER_HINT)
    assert {cell["hint"] for cell in gpt2[:4]} == {None}  # right cells get no hint


def test_a_wrong_cell_carries_its_columns_hint_and_a_right_one_does_not(
    user_client, exercise, django_capture_on_commit_callbacks
):
    set_hint(exercise, "n_layers", "num_hidden_layers in config.json")
    submit(user_client, exercise, django_capture_on_commit_callbacks, FAILING_CSV)

    [attempt] = attempts(user_client, exercise)

    n_layers = [cell for cell in cells(attempt) if cell["column"] == "n_layers"]
    assert [(cell["verdict"], cell["hint"]) for cell in n_layers] == [
        ("incorrect", "num_hidden_layers in config.json"),
        ("correct", None),
        ("correct", None),
    ]


def test_an_unreadable_cell_is_wrong_with_no_hint_meant_for_another_mistake(
    user_client, exercise, django_capture_on_commit_callbacks
):
    set_hint(exercise, "intermediate_size", N_INNER_HINT)
    set_hint(exercise, "d_model", "hidden_size in config.json")
    unreadable = (
        "model,d_model,n_layers,n_heads,vocab_size,intermediate_size\n"
        "GPT-2,seven hundred,12,12,50257,\n"
        'Llama 3 8B,"4,096",32,32,128256,14k\n'
        "Mistral-7B-v0.1,4096,32,32,32000,14336\n"
    )
    submit(user_client, exercise, django_capture_on_commit_callbacks, unreadable)

    [attempt] = attempts(user_client, exercise)

    by_cell = {(cell["column"], cell["submitted"]): cell for cell in cells(attempt)}
    for word in (("d_model", "seven hundred"), ("intermediate_size", "14k")):
        assert (by_cell[word]["verdict"], by_cell[word]["hint"]) == ("unparseable", None)
    # The empty cell in the same column still gets the hint written for it.
    assert by_cell[("intermediate_size", "")]["hint"] == N_INNER_HINT
    # Wrong cells: 12 of the 15 right, the three others counted against the score.
    assert (attempt["feedback"]["correct"], attempt["feedback"]["checked"]) == (12, 15)
    assert attempt["score"] == 0.8


def test_a_hint_written_after_grading_shows_on_the_earlier_attempt(
    user_client, exercise, django_capture_on_commit_callbacks
):
    submission = submit(
        user_client, exercise, django_capture_on_commit_callbacks, GPT2_WITHOUT_N_INNER
    )
    set_hint(exercise, "intermediate_size", N_INNER_HINT)

    body = user_client.get(reverse("submission-detail", args=[submission])).json()

    assert body["feedback"]["rows"][0]["cells"][4]["hint"] == N_INNER_HINT


def test_the_exercise_gives_each_columns_hint(api_client, exercise):
    set_hint(exercise, "intermediate_size", N_INNER_HINT)

    body = api_client.get(reverse("exercise-detail", args=[exercise.id])).json()

    assert [column["hint"] for column in body["columns"]] == ["", "", "", "", N_INNER_HINT]


def graded_feedback():
    cell = {"column": "d_model", "submitted": "1", "verdict": "incorrect", "expected": 768}
    row = {"row": 1, "name": "GPT-2", "model": "GPT-2", "duplicate": False, "cells": [cell]}
    return {
        "key_header": "model",
        "columns": [{"name": "d_model", "headers": ["d_model"]}],
        "correct": 0,
        "checked": 1,
        "models_recognised": 1,
        "rows": [row],
    }


@pytest.mark.parametrize("count", [1, 15])
def test_listing_graded_attempts_costs_the_same_queries_for_1_or_15(
    user_client, user, exercise, count, django_assert_num_queries
):
    set_hint(exercise, "d_model", "hidden_size in config.json")
    for _ in range(count):
        SubmissionFactory(user=user, exercise=exercise, status="graded", feedback=graded_feedback())

    # the exercise is visible, its hints, whether the learner passed, the count, the page
    with django_assert_num_queries(5):
        listed = attempts(user_client, exercise)

    assert len(listed) == count
    assert {a["feedback"]["rows"][0]["cells"][0]["hint"] for a in listed} == {
        "hidden_size in config.json"
    }
