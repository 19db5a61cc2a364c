"""The content's history through the admin's pages: who changed what, and going back."""

import re

import pytest
from django.urls import reverse

from curriculum.services import load_curriculum
from lessons.blocks import format_table_text
from lessons.models import Block, Lesson
from lessons.tests.factories import LessonFactory, ProseBlockFactory, QuestFactory
from lessons.tests.test_admin import change_form_data

pytestmark = pytest.mark.django_db


def _blocks_as_posted(lesson: Lesson, **changes: dict) -> list[dict]:
    rows = []
    for block in lesson.blocks.order_by("position", "id"):
        row = {
            "id": block.id,
            "kind": block.kind,
            "position": block.position,
            "markdown": block.markdown,
            "style": block.style,
            "caption": block.caption,
            "table": format_table_text(block.columns, block.rows) if block.kind == "table" else "",
            "title": block.title,
            "language": block.language,
            "source": block.source,
        }
        row.update(changes.get(str(block.id), {}))
        rows.append(row)
    return rows


def test_reference_lesson_history_shows_an_editors_edit_and_a_revert_served_at_once(
    client, editor, api_client, demo_slice
):
    # given the curriculum as the loader writes it, and the lesson as learners get it (cached)
    load_curriculum(root=demo_slice)
    lesson = Lesson.objects.get(slug="embedding-dimension")
    first = lesson.blocks.order_by("position", "id").first()
    original_html = first.html
    api_url = f"/api/v1/lessons/{lesson.slug}/"
    assert api_client.get(api_url).json()["blocks"][0]["html"] == original_html

    # when an editor changes the first block through the change form
    change_url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    edited = {str(first.id): {"markdown": "Broken by an editor."}}
    response = client.post(
        change_url, change_form_data(lesson, _blocks_as_posted(lesson, **edited))
    )
    assert response.status_code == 302
    assert "Broken by an editor." in api_client.get(api_url).json()["blocks"][0]["html"]

    # then the history names the editor, the change of that block, and the loader's version
    history_url = reverse("admin:lessons_lesson_history", args=[lesson.id])
    page = client.get(history_url)
    body = page.content.decode()
    assert editor.email in body
    assert "Broken by an editor." in re.sub(r"</?(ins|del)>", "", body)
    assert "load_curriculum" in body
    versions = page.context["versions"]
    assert versions[0].by == editor.email
    assert [(b.block_id, b.action) for b in versions[0].blocks] == [(first.id, "changed")], (
        [
            (b.block_id, b.label, [(f.field, f.old[:30], f.new[:30]) for f in b.fields])
            for b in versions[0].blocks
        ],
        first.id,
    )
    loaded = next(v for v in versions if v.reason == "load_curriculum")

    # when the editor reverts to the loader's version
    revert_url = reverse("admin:lessons_lesson_revert", args=[lesson.id, loaded.history_id])
    response = client.post(revert_url)
    assert response.status_code == 302

    # then learners get the old text at once, and the revert is itself in the history
    assert api_client.get(api_url).json()["blocks"][0]["html"] == original_html
    latest = client.get(history_url).context["versions"][0]
    assert latest.by == editor.email
    assert latest.reason.startswith("Reverted to the version of")
    assert [b.block_id for b in latest.blocks] == [first.id]
    assert Block.objects.get(pk=first.pk).markdown == first.markdown


def test_a_revert_brings_back_a_deleted_block_with_its_id(client, editor):
    lesson = LessonFactory(quest=QuestFactory())
    kept = ProseBlockFactory(lesson=lesson, position=1, markdown="Kept")
    gone = ProseBlockFactory(lesson=lesson, position=2, markdown="Deleted later")
    lesson.save()  # the version holding both blocks
    version = lesson.history.latest().history_id
    change_url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    rows = _blocks_as_posted(lesson)
    rows[1]["DELETE"] = "on"
    assert client.post(change_url, change_form_data(lesson, rows)).status_code == 302
    assert list(lesson.blocks.values_list("id", flat=True)) == [kept.id]

    client.post(reverse("admin:lessons_lesson_revert", args=[lesson.id, version]))

    assert list(lesson.blocks.order_by("position").values_list("id", "markdown")) == [
        (kept.id, "Kept"),
        (gone.id, "Deleted later"),
    ]
    removed = client.get(reverse("admin:lessons_lesson_history", args=[lesson.id])).context[
        "versions"
    ][1]
    assert [(b.block_id, b.action) for b in removed.blocks] == [(gone.id, "removed")]


def test_revert_is_post_only_and_404s_on_another_lessons_version(client, editor):
    lesson = LessonFactory()
    other = LessonFactory()
    other_version = other.history.latest().history_id

    get = client.get(reverse("admin:lessons_lesson_revert", args=[lesson.id, other_version]))
    post = client.post(reverse("admin:lessons_lesson_revert", args=[lesson.id, other_version]))

    assert get.status_code == 405
    assert post.status_code == 404


def test_a_learner_cannot_revert(client, user):
    lesson = LessonFactory()
    version = lesson.history.latest().history_id
    client.force_login(user)

    response = client.post(reverse("admin:lessons_lesson_revert", args=[lesson.id, version]))

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_the_loaders_writes_are_recorded_under_its_name(demo_slice):
    load_curriculum(root=demo_slice)

    record = Lesson.history.filter(slug="embedding-dimension").latest()
    assert record.history_user is None
    assert record.history_change_reason == "load_curriculum"
    assert Block.history.filter(history_change_reason="load_curriculum").exists()


def test_quest_and_exercise_have_history_pages(client, editor, demo_slice):
    load_curriculum(root=demo_slice)
    lesson = Lesson.objects.get(slug="embedding-dimension")
    exercise = lesson.exercises.get()

    quest_page = client.get(reverse("admin:lessons_quest_history", args=[lesson.quest_id]))
    exercise_page = client.get(reverse("admin:exercises_exercise_history", args=[exercise.id]))

    assert quest_page.status_code == 200
    assert exercise_page.status_code == 200
    assert "load_curriculum" in exercise_page.content.decode()


def test_the_list_edits_still_save_and_are_versions(client, editor):
    lesson = LessonFactory(position=1, published=True)

    response = client.post(
        reverse("admin:lessons_lesson_changelist"),
        {
            "form-TOTAL_FORMS": "1",
            "form-INITIAL_FORMS": "1",
            "form-MIN_NUM_FORMS": "0",
            "form-MAX_NUM_FORMS": "1000",
            "form-0-id": str(lesson.id),
            "form-0-position": "7",
            "_save": "Save",
        },
    )

    assert response.status_code == 302
    lesson.refresh_from_db()
    assert (lesson.position, lesson.published) == (7, False)
    latest = client.get(reverse("admin:lessons_lesson_history", args=[lesson.id])).context[
        "versions"
    ][0]
    assert {change.field for change in latest.fields} == {"position", "published"}
    assert latest.by == editor.email
