"""Editing exercises and the reference catalogue in the admin, as a content editor."""

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse

from exercises.admin import ExerciseInline
from exercises.models import Exercise, ModelReference
from exercises.tests.factories import ExerciseFactory
from lessons.models import Lesson

pytestmark = pytest.mark.django_db


def test_content_editors_may_edit_exercises_and_the_catalogue(editor):
    for perm in (
        "exercises.change_exercise",
        "exercises.add_exercisecolumn",
        "exercises.delete_exercisecolumn",
        "exercises.change_modelreference",
        "exercises.add_modelreference",
    ):
        assert editor.has_perm(perm), perm
    assert not editor.has_perm("exercises.view_submission")


def test_exercise_change_page_lists_its_columns(client, editor, catalogue):
    exercise = ExerciseFactory()

    response = client.get(reverse("admin:exercises_exercise_change", args=[exercise.id]))

    assert response.status_code == 200
    assert b"intermediate_size" in response.content


def test_editor_changes_the_pass_mark_a_column_tolerance_and_a_hint(client, editor, catalogue):
    exercise = ExerciseFactory()
    columns = list(exercise.columns.all())
    data = {
        "lesson": str(exercise.lesson_id),
        "title": exercise.title,
        "slug": exercise.slug,
        "kind": "table",
        "position": "0",
        "prompt": exercise.prompt,
        "key_column": "model",
        "key_synonyms": '["name"]',
        "rows_required": "3",
        "pass_mark": "0.9",
        "xp": "60",
        "columns-TOTAL_FORMS": str(len(columns)),
        "columns-INITIAL_FORMS": str(len(columns)),
        "columns-MIN_NUM_FORMS": "0",
        "columns-MAX_NUM_FORMS": "1000",
    }
    for i, column in enumerate(columns):
        data |= {
            f"columns-{i}-id": str(column.id),
            f"columns-{i}-exercise": str(exercise.id),
            f"columns-{i}-position": str(column.position),
            f"columns-{i}-name": column.name,
            f"columns-{i}-reference_field": column.reference_field,
            f"columns-{i}-synonyms": "[]",
            f"columns-{i}-tolerance": "2" if i == 0 else "0",
            f"columns-{i}-hint": "GPT-2 has no n_inner: 4 x n_embd." if i == 4 else "",
        }

    response = client.post(reverse("admin:exercises_exercise_change", args=[exercise.id]), data)

    assert response.status_code == 302, response.content[:2000]
    exercise.refresh_from_db()
    assert float(exercise.pass_mark) == 0.9
    assert float(exercise.columns.get(name="d_model").tolerance) == 2
    assert exercise.columns.get(name="intermediate_size").hint.startswith("GPT-2 has no n_inner")


def test_a_pass_mark_above_one_is_refused(client, editor, catalogue):
    exercise = ExerciseFactory(columns=False)
    data = {
        "lesson": str(exercise.lesson_id), "title": "T", "slug": exercise.slug, "kind": "table",
        "position": "0", "prompt": "P", "key_column": "model", "key_synonyms": "[]",
        "rows_required": "3", "pass_mark": "1.5", "xp": "60",
        "columns-TOTAL_FORMS": "0", "columns-INITIAL_FORMS": "0",
        "columns-MIN_NUM_FORMS": "0", "columns-MAX_NUM_FORMS": "1000",
    }  # fmt: skip

    response = client.post(reverse("admin:exercises_exercise_change", args=[exercise.id]), data)

    assert response.status_code == 200  # the form again, with the error
    exercise.refresh_from_db()
    assert float(exercise.pass_mark) == 0.8


def test_catalogue_search_finds_a_model_by_alias(client, editor, catalogue):
    response = client.get(reverse("admin:exercises_modelreference_changelist"), {"q": "llama3-8b"})

    assert response.status_code == 200
    assert b"Meta-Llama-3-8B" in response.content


def test_editor_corrects_a_catalogue_figure(client, editor, catalogue):
    gpt2 = ModelReference.objects.get(name="GPT-2")
    data = {
        "name": gpt2.name, "aliases": '["gpt2"]', "family": gpt2.family, "hf_repo": gpt2.hf_repo,
        "d_model": "768", "n_layers": "12", "n_heads": "12", "n_kv_heads": "12",
        "vocab_size": "50257", "intermediate_size": "3072", "source": "config.json",
    }  # fmt: skip

    response = client.post(reverse("admin:exercises_modelreference_change", args=[gpt2.id]), data)

    assert response.status_code == 302
    gpt2.refresh_from_db()
    assert (gpt2.aliases, gpt2.source) == (["gpt2"], "config.json")


def test_exercise_inline_for_the_lesson_page_edits_the_lessons_exercises(editor, catalogue):
    exercise = ExerciseFactory()
    request = RequestFactory().get("/")
    request.user = editor
    inline = ExerciseInline(Lesson, admin.site)

    formset = inline.get_formset(request, exercise.lesson)(instance=exercise.lesson)

    assert [form.instance for form in formset.forms] == [exercise]
    assert "prompt" in formset.forms[0].fields
    assert "edit columns" in inline.columns_link(exercise)
    assert inline.has_change_permission(request, exercise.lesson)


def test_submissions_are_read_only_in_the_admin(admin_client, catalogue):
    from exercises.tests.factories import SubmissionFactory

    submission = SubmissionFactory(exercise=ExerciseFactory())

    response = admin_client.get(reverse("admin:exercises_submission_change", args=[submission.id]))

    assert response.status_code == 200
    assert b'name="_save"' not in response.content
    assert Exercise.objects.count() == 1


def test_synonyms_must_be_a_list_of_names(client, editor, catalogue):
    gpt2 = ModelReference.objects.get(name="GPT-2")
    data = {
        "name": gpt2.name, "aliases": '"gpt2"', "family": gpt2.family, "hf_repo": gpt2.hf_repo,
        "d_model": "768", "n_layers": "12", "n_heads": "12", "n_kv_heads": "12",
        "vocab_size": "50257", "intermediate_size": "3072", "source": "",
    }  # fmt: skip

    response = client.post(reverse("admin:exercises_modelreference_change", args=[gpt2.id]), data)

    assert response.status_code == 200
    assert b"JSON list of names" in response.content
