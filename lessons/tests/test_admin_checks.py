"""Check blocks (a lesson's questions) through the lesson's change form: saved cleaned,
refused with every problem named at the top and at the block, keys unique in the lesson."""

import copy
import html
import json

import pytest
from django.urls import reverse

from lessons.checks import UNITS, clean_check
from lessons.tests.factories import (
    CHOICE_CHECK,
    NUMERIC_CHECK,
    ORDERING_CHECK,
    CheckBlockFactory,
    LessonFactory,
    ProseBlockFactory,
)
from lessons.tests.test_admin import change_form_data

pytestmark = pytest.mark.django_db

PROMPT = "GPT-2 small has d_model = 768 and **12 heads**. How wide is each head?"


def check_row(spec, *, position: int = 1, prompt: str = PROMPT, **fields) -> dict:
    """A block row of the change form for a check, its spec as the form editor sends it."""
    spec_text = spec if isinstance(spec, str) else json.dumps(spec)
    return {"kind": "check", "position": position, "markdown": prompt, "spec": spec_text, **fields}


def post(client, lesson, blocks):
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    return client.post(url, change_form_data(lesson, blocks))


def spec_errors(response, index: int = 0) -> list[str]:
    formset = response.context["inline_admin_formsets"][0].formset
    return [str(e) for e in formset.forms[index].errors.get("spec", [])]


@pytest.mark.parametrize(
    "spec", [NUMERIC_CHECK, CHOICE_CHECK, ORDERING_CHECK], ids=["numeric", "choice", "ordering"]
)
def test_an_editor_adds_a_check_of_each_type(client, editor, spec):
    lesson = LessonFactory()
    sent = copy.deepcopy(spec) | {"explanation": "  " + spec["explanation"] + "  \r\n"}

    response = post(client, lesson, [check_row(sent, prompt=PROMPT + "\r\n")])

    assert response.status_code == 302, response.context and response.context["errors"]
    block = lesson.blocks.get()
    assert block.kind == "check"
    assert block.markdown == PROMPT
    assert "<strong>12 heads</strong>" in block.html
    # Stored as the curriculum loader stores it: trimmed, defaults left out.
    assert block.spec == clean_check(spec)
    assert block.spec["explanation"] == spec["explanation"]


def test_a_numeric_check_keeps_its_tolerance_unit_and_mistake_ranges(client, editor):
    lesson = LessonFactory()
    spec = {
        "key": "kv-cache-size",
        "type": "numeric",
        "answer": 12288,
        "relative_tolerance": 0.02,
        "unit": "MB",
        "mistakes": [
            {"value": 6144, "feedback": "That is the keys alone."},
            {"min": 24000, "max": 25000, "feedback": "Counted twice."},
        ],
        "explanation": "2 x layers x d_model x tokens x bytes.",
        "reveal_after": 5,
    }

    response = post(client, lesson, [check_row(spec)])

    assert response.status_code == 302
    assert lesson.blocks.get().spec == clean_check(spec)


def test_changing_a_saved_checks_spec(client, editor):
    lesson = LessonFactory()
    block = CheckBlockFactory(lesson=lesson, position=1)
    spec = block.spec | {"answer": 128, "mistakes": []}

    response = post(client, lesson, [check_row(spec, id=block.id)])

    assert response.status_code == 302
    block.refresh_from_db()
    assert block.spec["answer"] == 128
    assert "mistakes" not in block.spec


def _choice_without_a_right_option():
    spec = copy.deepcopy(CHOICE_CHECK)
    for option in spec["options"]:
        option.pop("correct", None)
    return spec


@pytest.mark.parametrize(
    ("spec", "field", "message"),
    [
        (
            _choice_without_a_right_option(),
            "options",
            "Options: no option is marked correct",
        ),
        (
            ORDERING_CHECK | {"items": ["Token ids"]},
            "items",
            "Items: an ordering needs 3 to 8 items",
        ),
        (
            NUMERIC_CHECK | {"tolerance": -1},
            "tolerance",
            "Tolerance: the tolerance must be a number of zero or more",
        ),
        (
            NUMERIC_CHECK | {"unit": "furlongs"},
            "unit",
            "Unit: unknown unit 'furlongs'",
        ),
        (
            NUMERIC_CHECK | {"mistakes": [{"value": 64, "feedback": "Right, in fact."}]},
            "mistakes",
            "Expected mistakes: mistake 1: its value is accepted as right",
        ),
        (
            NUMERIC_CHECK
            | {"tolerance": 2, "mistakes": [{"value": 65, "feedback": "Within tolerance."}]},
            "mistakes",
            "Expected mistakes: mistake 1: its value is accepted as right",
        ),
        (
            NUMERIC_CHECK | {"tolerance": 1, "relative_tolerance": 0.1},
            "relative_tolerance",
            "Relative tolerance: give a tolerance or a relative tolerance, not both",
        ),
        ({}, "key", "Key: a check needs a key"),
        ('{"key": "head-dimension", "type": ', "", "Enter a valid JSON."),
    ],
    ids=[
        "no-correct-option",
        "ordering-of-one",
        "negative-tolerance",
        "unknown-unit",
        "mistake-is-the-answer",
        "mistake-within-tolerance",
        "both-tolerances",
        "empty-spec",
        "unreadable-json",
    ],
)
def test_a_bad_check_is_refused_with_its_problem_at_the_top_and_at_the_block(
    client, editor, spec, field, message
):
    lesson = LessonFactory()

    response = post(client, lesson, [check_row(spec)])

    assert response.status_code == 200
    assert not lesson.blocks.exists()
    body = html.unescape(response.content.decode())
    assert "Please correct the error below." in body  # Django's own note, at the top
    summary = body[
        body.index('id="lp-error-summary"') : body.index("</ul>", body.index("lp-error"))
    ]
    assert "Block 1 (check)" in summary
    assert message in summary
    assert any(message in error for error in spec_errors(response))
    if field:  # the form editor shows it at the control it names
        shown = response.context["inline_admin_formsets"][0].formset.forms[0]
        data_errors = json.loads(shown.fields["spec"].widget.attrs["data-errors"])
        assert message.split(": ", 1)[1] in data_errors[field]


def test_a_check_needs_its_prompt(client, editor):
    lesson = LessonFactory()

    response = post(client, lesson, [check_row(NUMERIC_CHECK, prompt="")])

    assert response.status_code == 200
    formset = response.context["inline_admin_formsets"][0].formset
    assert "a check needs its prompt (Markdown)" in str(formset.forms[0].errors["markdown"])


def test_a_key_used_twice_in_the_lesson_is_refused_at_the_second_check(client, editor):
    lesson = LessonFactory()
    blocks = [
        check_row(NUMERIC_CHECK, position=1),
        {"kind": "prose", "position": 2, "markdown": "Between."},
        check_row(CHOICE_CHECK | {"key": NUMERIC_CHECK["key"]}, position=3),
    ]

    response = post(client, lesson, blocks)

    assert response.status_code == 200
    assert not lesson.blocks.exists()
    assert spec_errors(response, 0) == []
    assert spec_errors(response, 2) == [
        "Key: 'head-dimension' is already the key of block 1; each check of a lesson needs its own"
    ]
    assert [entry["href"] for entry in response.context["error_summary"]] == ["#blocks-2"]


def test_a_key_used_twice_in_the_lesson_is_refused_when_changing_a_saved_check(client, editor):
    lesson = LessonFactory()
    first = CheckBlockFactory(lesson=lesson, position=1)
    second = CheckBlockFactory(lesson=lesson, position=2, spec=dict(ORDERING_CHECK))

    response = post(
        client,
        lesson,
        [
            check_row(first.spec, position=1, id=first.id),
            check_row(second.spec | {"key": first.spec["key"]}, position=2, id=second.id),
        ],
    )

    assert response.status_code == 200
    second.refresh_from_db()
    assert second.spec["key"] == ORDERING_CHECK["key"]


def test_a_deleted_checks_key_may_be_taken_by_a_new_one(client, editor):
    lesson = LessonFactory()
    old = CheckBlockFactory(lesson=lesson, position=1)

    response = post(
        client,
        lesson,
        [
            check_row(old.spec, position=1, id=old.id, DELETE="on"),
            check_row(CHOICE_CHECK | {"key": old.spec["key"]}, position=2),
        ],
    )

    assert response.status_code == 302
    assert lesson.blocks.get().spec["type"] == "choice"


def test_the_same_key_in_two_lessons_is_fine(client, editor):
    CheckBlockFactory(lesson=LessonFactory())
    lesson = LessonFactory()

    response = post(client, lesson, [check_row(NUMERIC_CHECK)])

    assert response.status_code == 302


def test_the_change_form_carries_the_check_editor(client, editor):
    lesson = LessonFactory()
    CheckBlockFactory(lesson=lesson, position=1, spec=dict(CHOICE_CHECK))

    response = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id]))

    body = response.content.decode()
    assert "lessons/admin/check-editor.js" in body
    assert 'class="lp-check-editor"' in body
    assert 'class="lp-check-form" hidden' in body
    assert 'aria-label="Preview of the check"' in body
    # The JSON the editor falls back to without JavaScript, indented for reading.
    textarea = response.context["inline_admin_formsets"][0].formset.forms[0]["spec"].value()
    assert json.loads(textarea) == CHOICE_CHECK
    rendered = str(response.context["inline_admin_formsets"][0].formset.forms[0]["spec"])
    assert '\n  "key": "what-grows"' in html.unescape(rendered)
    assert 'name="initial-blocks-0-spec"' not in rendered
    # What the form editor offers comes from lessons.checks.
    config = response.context["check_editor"]
    assert config["units"] == list(UNITS)
    assert [t["value"] for t in config["types"]] == ["numeric", "choice", "ordering"]
    assert config["options"] == {"min": 2, "max": 8}
    assert config["items"] == {"min": 3, "max": 8}
    assert 'id="lp-check-config"' in body
    kind_fields = json.loads(
        body.split('id="lp-block-kind-fields" type="application/json">', 1)[1].split("<", 1)[0]
    )
    assert kind_fields["check"] == ["markdown", "spec"]


def test_an_untouched_block_without_a_spec_in_the_post_is_not_changed(client, editor):
    lesson = LessonFactory()
    block = ProseBlockFactory(lesson=lesson, position=1, markdown="Same.")
    versions = block.history.count()

    response = post(
        client, lesson, [{"id": block.id, "kind": "prose", "position": 1, "markdown": "Same."}]
    )

    assert response.status_code == 302
    assert block.history.count() == versions


def test_a_block_switched_away_from_check_drops_its_spec(client, editor):
    lesson = LessonFactory()
    block = CheckBlockFactory(lesson=lesson, position=1)

    response = post(
        client,
        lesson,
        [
            {
                "id": block.id,
                "kind": "prose",
                "position": 1,
                "markdown": "Now prose.",
                "spec": json.dumps(block.spec),
            }
        ],
    )

    assert response.status_code == 302
    block.refresh_from_db()
    assert (block.kind, block.spec) == ("prose", {})


def test_the_lesson_preview_shows_checks_as_learners_get_them(client, editor):
    lesson = LessonFactory(published=False)
    CheckBlockFactory(lesson=lesson, position=1, spec=dict(CHOICE_CHECK), markdown="Which **one**?")
    CheckBlockFactory(lesson=lesson, position=2, spec=dict(ORDERING_CHECK))

    body = client.get(reverse("admin:lessons_lesson_preview", args=[lesson.id])).content.decode()

    assert "Which <strong>one</strong>?" in body
    assert 'type="radio" disabled> Quadratically' in body
    assert "<li>Embeddings</li>" in body
    # Never the answer's marks or explanations.
    assert "d x d matrices" not in body


def test_the_history_shows_what_changed_in_a_check_and_a_revert_brings_it_back(client, editor):
    lesson = LessonFactory()
    check = CheckBlockFactory(lesson=lesson, position=1, spec=dict(CHOICE_CHECK))
    lesson.save()  # the version holding the check as it was
    version = lesson.history.latest().history_id
    options = copy.deepcopy(CHOICE_CHECK["options"])
    options[1]["explanation"] = "Rewritten by an editor."

    assert (
        post(
            client,
            lesson,
            [check_row(CHOICE_CHECK | {"options": options}, id=check.id, prompt=check.markdown)],
        ).status_code
        == 302
    )
    assert (
        post(client, lesson, [check_row(check.spec, id=check.id, DELETE="on")]).status_code == 302
    )
    history_url = reverse("admin:lessons_lesson_history", args=[lesson.id])
    edit = client.get(history_url).context["versions"][1]
    client.post(reverse("admin:lessons_lesson_revert", args=[lesson.id, version]))

    [changed] = edit.blocks
    assert [change.field for change in changed.fields] == ["check options"]
    assert changed.fields[0].old.startswith('[{"text": "Quadratically"')
    restored = lesson.blocks.get()
    assert (restored.id, restored.spec) == (check.id, CHOICE_CHECK)
