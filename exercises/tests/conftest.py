from datetime import timedelta

import pytest
from django.urls import reverse

from exercises.services import pipeline
from exercises.tests.factories import ExerciseFactory
from lessons.checks import item_id
from lessons.tests.factories import (
    CHOICE_CHECK,
    ORDERING_CHECK,
    CheckBlockFactory,
    LessonFactory,
    ProseBlockFactory,
)


@pytest.fixture(autouse=True)
def _fresh_catalogue():
    """Each test reads the catalogue of its own database, not one cached by an earlier test."""
    from exercises.services.grading_cache import forget_catalogue

    forget_catalogue()
    yield
    forget_catalogue()


@pytest.fixture(autouse=True)
def _backlog_only_where_a_test_makes_one(request, monkeypatch):
    """A first attempt grades a backlog with it once its submission has waited BACKLOG_AFTER
    (100 ms): a test that grades what it just created crossed that on a loaded machine, and
    took the batch path. Tests of the backlog date their submissions back 1 s past the limit,
    still short of NOTIFY_WHEN_SLOWER_THAN (5 s). A live worker grades with its own limit, so
    its tests date theirs by that one."""
    if "live_worker" not in request.fixturenames:
        monkeypatch.setattr(pipeline, "BACKLOG_AFTER", timedelta(seconds=2))


@pytest.fixture
def catalogue(db):
    """The shipped reference catalogue (the seed migration's rows; transactional tests flush it)."""
    from exercises.services.catalogue import load_reference_catalogue

    load_reference_catalogue()


@pytest.fixture
def exercise(catalogue):
    return ExerciseFactory()


GOOD_CSV = (
    "model,d_model,n_layers,n_heads,vocab_size,intermediate_size\n"
    "GPT-2,768,12,12,50257,3072\n"
    'Llama 3 8B,"4,096",32,32,128256,14336\n'
    "Mistral-7B-v0.1,4096,32,32,32000,14336\n"
)
# Known models, four figures wrong: 11 of 15 cells right, below the 0.8 pass mark.
FAILING_CSV = (
    "model,d_model,n_layers,n_heads,vocab_size,intermediate_size\n"
    "GPT-2,768,24,16,50257,3072\n"
    "Llama 3 8B,4096,32,32,1,1\n"
    "Mistral-7B-v0.1,4096,32,32,32000,14336\n"
)


def post_table(client, exercise, content=GOOD_CSV, fmt="csv", **extra):
    """Submit a table to the exercise through the API, as the web app does."""
    return client.post(
        reverse("exercise-submissions", args=[exercise.id]),
        {"format": fmt, "content": content, **extra},
        format="json",
    )


@pytest.fixture
def lesson():
    """A lesson of 31 XP asking three checks (numeric, choice, ordering) after some prose."""
    lesson = LessonFactory(slug="embedding-dimension", xp=31)
    ProseBlockFactory(lesson=lesson, position=1)
    CheckBlockFactory(lesson=lesson, position=2)
    CheckBlockFactory(lesson=lesson, position=3, spec=dict(CHOICE_CHECK))
    CheckBlockFactory(lesson=lesson, position=4, spec=dict(ORDERING_CHECK))
    return lesson


def checks_of(lesson):
    return list(lesson.blocks.filter(kind="check").order_by("position"))


def answer(client, check, body):
    return client.post(reverse("check-answers", args=[check.pk]), {"answer": body}, format="json")


def right_answer(check):
    key = check.spec["key"]
    if check.spec["type"] == "numeric":
        return {"value": str(check.spec["answer"])}
    if check.spec["type"] == "choice":
        return {
            "options": [item_id(key, o["text"]) for o in check.spec["options"] if o.get("correct")]
        }
    return {"items": [item_id(key, text) for text in check.spec["items"]]}
