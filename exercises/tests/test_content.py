"""Exercises from curriculum files: upsert by slug, export back to the same spec."""

import pytest
from django.core.exceptions import ValidationError

from exercises.models import Exercise
from exercises.selectors import exercise_spec, exercise_specs_for_lessons
from exercises.services.content import upsert_exercise
from exercises.specs import SpecError, clean_spec
from lessons.tests.factories import LessonFactory

SPEC = {
    "title": "Read three config.json files",
    "prompt": "Pull the `config.json` of **three** open-weight models.",
    "kind": "table",
    "key_column": {"name": "model", "synonyms": ["name", "model_id"]},
    "columns": [
        {"name": "d_model", "synonyms": ["hidden_size", "n_embd", "dim"], "tolerance": 0},
        {"name": "n_layers", "synonyms": ["num_hidden_layers", "n_layer"]},
        {
            "name": "ffn",
            "field": "intermediate_size",
            "synonyms": ["n_inner"],
            "tolerance": 0.5,
            "hint": "GPT-2 has no n_inner: it means 4 x n_embd.",
        },
    ],
    "rows_required": 3,
    "pass_mark": 0.8,
    "xp": 60,
}


@pytest.mark.django_db
def test_upsert_exercise_creates_the_exercise_and_its_columns():
    lesson = LessonFactory(slug="embedding-dimension")

    exercise, outcome = upsert_exercise(lesson=lesson, spec=SPEC)

    assert outcome == "created"
    assert exercise.slug == "embedding-dimension"
    assert exercise.lesson == lesson
    assert [c.name for c in exercise.columns.all()] == ["d_model", "n_layers", "ffn"]
    assert exercise.columns.get(name="ffn").reference_field == "intermediate_size"


@pytest.mark.django_db
def test_upsert_exercise_twice_with_the_same_spec_changes_nothing():
    lesson = LessonFactory()
    upsert_exercise(lesson=lesson, spec=SPEC)

    _, outcome = upsert_exercise(lesson=lesson, spec=SPEC)

    assert outcome == "unchanged"
    assert Exercise.objects.count() == 1


@pytest.mark.django_db
def test_upsert_exercise_updates_fields_and_replaces_columns():
    lesson = LessonFactory()
    upsert_exercise(lesson=lesson, spec=SPEC)
    changed = {**SPEC, "xp": 80, "columns": SPEC["columns"][:1]}

    exercise, outcome = upsert_exercise(lesson=lesson, spec=changed)

    assert outcome == "updated"
    assert exercise.xp == 80
    assert [c.name for c in exercise.columns.all()] == ["d_model"]


@pytest.mark.django_db
def test_exported_spec_loads_back_unchanged():
    lesson = LessonFactory()
    exercise, _ = upsert_exercise(lesson=lesson, spec=SPEC)

    exported = exercise_spec(exercise)
    _, outcome = upsert_exercise(lesson=lesson, spec=exported)

    assert outcome == "unchanged"
    assert exported["columns"][2] == {
        "name": "ffn",
        "field": "intermediate_size",
        "synonyms": ["n_inner"],
        "tolerance": 0.5,
        "hint": "GPT-2 has no n_inner: it means 4 x n_embd.",
    }
    assert "hint" not in exported["columns"][0]  # files without hints stay as they are


@pytest.mark.django_db
def test_exercise_specs_for_lessons_maps_each_lesson_to_its_first_exercise(
    django_assert_num_queries,
):
    with_exercise, without = LessonFactory(), LessonFactory()
    upsert_exercise(lesson=with_exercise, spec=SPEC)

    with django_assert_num_queries(2):
        specs = exercise_specs_for_lessons(lesson_ids=[with_exercise.id, without.id])

    assert list(specs) == [with_exercise.id]
    assert specs[with_exercise.id]["title"] == SPEC["title"]


@pytest.mark.django_db
def test_upsert_exercise_with_an_invalid_spec_raises_and_writes_nothing():
    lesson = LessonFactory()
    bad = {**SPEC, "columns": [{"name": "d_model", "field": "parameters"}], "pass_mark": 2}

    with pytest.raises(ValidationError) as raised:
        upsert_exercise(lesson=lesson, spec=bad)

    assert any("field" in m for m in raised.value.messages)
    assert any("pass_mark" in m for m in raised.value.messages)
    assert not Exercise.objects.exists()


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"title": ""}, "exercise.title"),
        ({"kind": "essay"}, "exercise.kind"),
        ({"columns": []}, "exercise.columns"),
        ({"rows_required": 0}, "exercise.rows_required"),
        ({"xp": "lots"}, "exercise.xp"),
        ({"surprise": 1}, "exercise.surprise: unknown field"),
        ({"columns": [{"name": "d_model"}, {"name": "d_model"}]}, "appears twice"),
        ({"columns": [{"name": "d_model", "tolerance": -1}]}, "tolerance"),
        ({"key_column": {"name": "model", "synonyms": "name"}}, "synonyms"),
        ({"columns": [{"name": "d_model", "hint": "x" * 501}]}, "hint"),
    ],
)
def test_clean_spec_names_each_problem(change, problem):
    with pytest.raises(SpecError) as raised:
        clean_spec({**SPEC, **change}, default_slug="lesson")

    assert any(problem in p for p in raised.value.problems)


def test_clean_spec_accepts_a_key_column_given_as_a_plain_name():
    data = clean_spec({**SPEC, "key_column": "checkpoint"}, default_slug="lesson")

    assert data["key_column"] == {"name": "checkpoint", "synonyms": []}


@pytest.mark.django_db
def test_a_changed_hint_updates_the_exercise():
    lesson = LessonFactory()
    exercise, _ = upsert_exercise(lesson=lesson, spec=SPEC)
    columns = [{**SPEC["columns"][0], "hint": "Look for hidden_size."}, *SPEC["columns"][1:]]

    _, outcome = upsert_exercise(lesson=lesson, spec={**SPEC, "columns": columns})

    assert outcome == "updated"
    assert exercise.columns.get(name="d_model").hint == "Look for hidden_size."
