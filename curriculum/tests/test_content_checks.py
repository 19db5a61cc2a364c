"""The demo curriculum's checks, walked one by one: every lesson asks at least two, the right
answer passes, every expected wrong answer gets its feedback, every option explains itself.

Parametrised by lesson (`-k <slug>` runs one lesson's), on the files as the loader reads them,
and once through the API on the loaded curriculum."""

from collections import Counter
from pathlib import Path

import pytest
import yaml
from rest_framework.throttling import ScopedRateThrottle

from curriculum.files import read_curriculum
from curriculum.services import load_curriculum
from lessons import checks
from lessons.models import Block

CONTENT = Path(__file__).resolve().parents[2] / "content"
QUEST = CONTENT / "transformers"
LESSON_SLUGS = yaml.safe_load((QUEST / "quest.yaml").read_text())["lessons"]
# What the quest must ask across its lessons, by kind.
QUEST_MINIMUMS = {"numeric": 40, "choice": 60, "ordering": 10, "table": 5}


@pytest.fixture(scope="module")
def lessons():
    (quest,) = [q for q in read_curriculum(CONTENT) if q.slug == "transformers"]
    return {lesson.slug: lesson for lesson in quest.lessons}


def lesson_checks(lesson):
    return [block for block in lesson.blocks if block["kind"] == "check"]


@pytest.mark.parametrize("slug", LESSON_SLUGS)
def test_lesson_asks_at_least_two_checks(lessons, slug):
    assert len(lesson_checks(lessons[slug])) >= 2


@pytest.mark.parametrize("slug", LESSON_SLUGS)
def test_every_check_passes_its_right_answer(lessons, slug):
    for block in lesson_checks(lessons[slug]):
        spec = block["spec"]
        right = checks.CHECK_TYPES[spec["type"]].right_answer(spec)
        assert checks.grade(spec, right).correct, spec["key"]


@pytest.mark.parametrize("slug", LESSON_SLUGS)
def test_every_expected_wrong_answer_gets_its_feedback(lessons, slug):
    for block in lesson_checks(lessons[slug]):
        spec = block["spec"]
        for answer, feedback in checks.CHECK_TYPES[spec["type"]].mistake_answers(spec):
            grade = checks.grade(spec, answer)
            assert not grade.correct, (spec["key"], answer)
            assert feedback in grade.feedback, (spec["key"], answer)


@pytest.mark.parametrize("slug", LESSON_SLUGS)
def test_every_option_explains_why_it_is_right_or_wrong(lessons, slug):
    for block in lesson_checks(lessons[slug]):
        for option in block["spec"].get("options", []):
            assert option["explanation"].strip(), (block["spec"]["key"], option["text"])


@pytest.mark.parametrize("slug", LESSON_SLUGS)
def test_every_lesson_cites_its_sources(lessons, slug):
    assert lessons[slug].links, slug


def test_the_quest_asks_enough_checks_of_every_kind(lessons):
    kinds = Counter(
        block["spec"]["type"] for lesson in lessons.values() for block in lesson_checks(lesson)
    )
    kinds["table"] = sum(lesson.exercise is not None for lesson in lessons.values())

    assert {kind: kinds[kind] >= low for kind, low in QUEST_MINIMUMS.items()} == dict.fromkeys(
        QUEST_MINIMUMS, True
    ), dict(kinds)


@pytest.mark.django_db
def test_every_loaded_check_is_answered_right_through_the_api(api_client, monkeypatch):
    # Hundreds of answers from one client: the rate limit is not what this walks.
    monkeypatch.setattr(ScopedRateThrottle, "allow_request", lambda self, request, view: True)
    load_curriculum(root=CONTENT)

    wrong = []
    blocks = Block.objects.filter(kind="check", lesson__quest__slug="transformers")
    for block in blocks:
        right = checks.CHECK_TYPES[block.spec["type"]].right_answer(block.spec)
        response = api_client.post(
            f"/api/v1/checks/{block.pk}/answers", {"answer": right}, format="json"
        )
        if response.status_code != 200 or not response.json()["correct"]:
            wrong.append((block.lesson.slug, block.spec["key"], response.status_code))

    assert blocks.count() >= 2 * len(LESSON_SLUGS)
    assert wrong == []
