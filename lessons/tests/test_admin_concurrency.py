"""Two editors on one lesson through the admin's change form: no save silently overwrites
another, and whoever is refused keeps what they typed."""

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.tests.factories import UserFactory
from lessons.forms import BLOCK_DELETED_MESSAGE
from lessons.models import Block, Lesson
from lessons.tests.factories import LessonFactory, ProseBlockFactory
from lessons.tests.test_admin import change_form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_editor():
    """A second member of "Content editors", in a browser of their own."""
    user = UserFactory(is_staff=True, email="second.editor@example.com")
    user.groups.add(Group.objects.get(name="Content editors"))
    browser = Client()
    browser.force_login(user)
    return browser


def _opened(client: Client, lesson: Lesson) -> dict:
    """The form as the editor's browser has it after opening the page: the version it shows."""
    response = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id]))
    assert response.status_code == 200
    return {"opened_version": response.context["adminform"].form["opened_version"].value()}


def _post(client: Client, lesson: Lesson, opened: dict, blocks: list[dict], **fields):
    data = {**change_form_data(lesson, blocks), **opened, **fields}
    return client.post(reverse("admin:lessons_lesson_change", args=[lesson.id]), data)


def _prose(block: Block, markdown: str, position: int | None = None) -> dict:
    return {
        "id": block.id,
        "kind": "prose",
        "position": position or block.position,
        "markdown": markdown,
    }


def test_the_second_of_two_saves_from_one_version_is_refused_and_names_the_first(
    client, editor, other_editor
):
    lesson = LessonFactory()
    block = ProseBlockFactory(lesson=lesson, position=1, markdown="One two three.\n")
    mine, theirs = _opened(client, lesson), _opened(other_editor, lesson)

    first = _post(other_editor, lesson, theirs, [_prose(block, "One two four.")])
    second = _post(client, lesson, mine, [_prose(block, "My edit.")])

    assert first.status_code == 302
    assert second.status_code == 200
    block.refresh_from_db()
    assert block.markdown == "One two four.\n"
    body = second.content.decode()
    assert "Changed by second.editor@example.com at " in body
    assert "since you opened it" in body
    # their change, shown whole, with the changed word marked
    conflict = body[body.index('id="lp-conflict"') :]
    assert "One two <del>three.</del>" in conflict
    assert "One two <ins>four.</ins>" in conflict
    # my input is still in the form to merge
    form = second.context["inline_admin_formsets"][0].formset.forms[0]
    assert form["markdown"].value() == "My edit."


def test_a_refused_save_can_be_saved_again_once_the_editor_has_seen_the_change(
    client, editor, other_editor
):
    lesson = LessonFactory()
    block = ProseBlockFactory(lesson=lesson, position=1, markdown="Start.")
    mine, theirs = _opened(client, lesson), _opened(other_editor, lesson)
    _post(other_editor, lesson, theirs, [_prose(block, "Their edit.")])
    refused = _post(client, lesson, mine, [_prose(block, "Merged: theirs and mine.")])

    # the refused page carries the version the editor has now seen
    seen = {"opened_version": refused.context["adminform"].form["opened_version"].value()}
    saved = _post(client, lesson, seen, [_prose(block, "Merged: theirs and mine.")])

    assert saved.status_code == 302
    block.refresh_from_db()
    assert block.markdown == "Merged: theirs and mine.\n"


def test_a_save_from_the_current_version_goes_through_and_moves_the_version_on(client, editor):
    lesson = LessonFactory()
    block = ProseBlockFactory(lesson=lesson, position=1)
    before = Lesson.objects.get(pk=lesson.pk).version

    response = _post(client, lesson, _opened(client, lesson), [_prose(block, "Edited.")])

    assert response.status_code == 302
    assert Lesson.objects.get(pk=lesson.pk).version == before + 1


def test_a_block_deleted_by_another_editor_is_named_as_such_not_as_a_bad_choice(
    client, editor, other_editor
):
    lesson = LessonFactory()
    kept = ProseBlockFactory(lesson=lesson, position=1, markdown="Kept.")
    gone = ProseBlockFactory(lesson=lesson, position=2, markdown="Soon gone.")
    mine, theirs = _opened(client, lesson), _opened(other_editor, lesson)
    deleted = {**_prose(gone, "Soon gone."), "DELETE": "on"}
    assert _post(other_editor, lesson, theirs, [_prose(kept, "Kept."), deleted]).status_code == 302

    response = _post(client, lesson, mine, [_prose(kept, "Kept."), _prose(gone, "My words.")])

    assert response.status_code == 200
    body = response.content.decode()
    assert "Select a valid choice" not in body
    assert "None:" not in body
    assert BLOCK_DELETED_MESSAGE.split(":")[0] in body
    summary = [entry["messages"] for entry in response.context["error_summary"]]
    assert any(BLOCK_DELETED_MESSAGE in " ".join(m) for m in summary)
    form = response.context["inline_admin_formsets"][0].formset.forms[1]
    assert form["markdown"].value() == "My words."


def test_the_deleted_blocks_row_ticked_for_deletion_then_saves(client, editor, other_editor):
    lesson = LessonFactory()
    kept = ProseBlockFactory(lesson=lesson, position=1, markdown="Kept.")
    gone = ProseBlockFactory(lesson=lesson, position=2, markdown="Soon gone.")
    theirs = _opened(other_editor, lesson)
    deleted = {**_prose(gone, "Soon gone."), "DELETE": "on"}
    _post(other_editor, lesson, theirs, [_prose(kept, "Kept."), deleted])

    response = _post(
        client, lesson, _opened(client, lesson), [_prose(kept, "Kept, edited."), deleted]
    )

    assert response.status_code == 302
    assert list(lesson.blocks.values_list("markdown", flat=True)) == ["Kept, edited.\n"]


def test_a_load_of_the_curriculum_meanwhile_also_refuses_the_stale_save(client, editor):
    lesson = LessonFactory()
    block = ProseBlockFactory(lesson=lesson, position=1, markdown="Start.")
    mine = _opened(client, lesson)
    Lesson.objects.filter(pk=lesson.pk).update(version=lesson.version + 1)

    response = _post(client, lesson, mine, [_prose(block, "Mine.")])

    assert response.status_code == 200
    assert "since you opened it" in response.content.decode()
