from datetime import timedelta

import pytest
from django.urls import reverse

from exercises.tests.conftest import answer, checks_of, right_answer  # noqa: F401
from lessons.tests.factories import (
    CHOICE_CHECK,
    ORDERING_CHECK,
    CheckBlockFactory,
    LessonFactory,
    ProseBlockFactory,
)
from reviews import scheduling


@pytest.fixture(autouse=True)
def _no_fuzz(monkeypatch):
    """Schedules to the day: the library's fuzz draws a random day around each interval (its
    own test compares it with a seeded draw)."""
    monkeypatch.setattr(scheduling, "FUZZ", False)


@pytest.fixture
def lesson():
    """A lesson of 31 XP asking three checks (numeric, choice, ordering)."""
    lesson = LessonFactory(slug="embedding-dimension", xp=31)
    ProseBlockFactory(lesson=lesson, position=1)
    CheckBlockFactory(lesson=lesson, position=2)
    CheckBlockFactory(lesson=lesson, position=3, spec=dict(CHOICE_CHECK))
    CheckBlockFactory(lesson=lesson, position=4, spec=dict(ORDERING_CHECK))
    return lesson


def wrong_answer(check):
    if check.spec["type"] == "numeric":
        return {"value": "1"}
    right = right_answer(check)
    if check.spec["type"] == "choice":
        options = [o for o in _option_ids(check) if o not in right["options"]]
        return {"options": options[:1]}
    items = right["items"]
    return {"items": [items[1], items[0], *items[2:]]}


def _option_ids(check):
    from lessons.checks import item_id

    return [item_id(check.spec["key"], o["text"]) for o in check.spec["options"]]


def review(client, check, body, **extra):
    return client.post(
        reverse("me-review-answers", args=[check.pk]), {"answer": body, **extra}, format="json"
    )


DAY = timedelta(days=1)
