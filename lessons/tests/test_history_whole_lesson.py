"""History covers the whole lesson: tags, links and exercise are reverted with the blocks,
and the diff shows whole texts with the changed words marked."""

import pytest
from django.urls import reverse

from exercises.tests.factories import ExerciseFactory
from lessons.tests.factories import LessonFactory, LinkFactory, ProseBlockFactory, TagFactory
from lessons.tests.test_admin import change_form_data

pytestmark = pytest.mark.django_db


def _history(client, lesson):
    return client.get(reverse("admin:lessons_lesson_history", args=[lesson.id]))


def test_a_revert_restores_tags_links_and_exercise_with_the_blocks(client, editor):
    # given a version with its tags, a link, an exercise and a block
    lesson = LessonFactory(tags=["old-tag"])
    link = LinkFactory(lesson=lesson, position=1, title="Old link", url="https://old.example")
    exercise = ExerciseFactory(lesson=lesson, title="Old exercise", columns=False)
    block = ProseBlockFactory(lesson=lesson, position=1, markdown="Old text.\n")
    lesson.save()
    version = lesson.history.latest().history_id
    # and later changes to every part of it
    lesson.tags.set([TagFactory(slug="new-tag")])
    link.title, link.url = "New link", "https://new.example"
    link.save()
    LinkFactory(lesson=lesson, position=2, title="Added link")
    exercise.title = "New exercise"
    exercise.save()
    block.markdown = "New text.\n"
    block.save()
    lesson.save()

    # when the editor reverts to the version
    response = client.post(reverse("admin:lessons_lesson_revert", args=[lesson.id, version]))

    # then all of it is as it was
    assert response.status_code == 302
    assert list(lesson.tags.values_list("slug", flat=True)) == ["old-tag"]
    assert list(lesson.links.values_list("title", "url")) == [("Old link", "https://old.example")]
    exercise.refresh_from_db()
    assert exercise.title == "Old exercise"
    block.refresh_from_db()
    assert block.markdown == "Old text.\n"


def test_the_history_lists_tag_and_link_changes(client, editor):
    lesson = LessonFactory(tags=["old-tag"])
    lesson.save()
    page = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id]))
    opened = page.context["adminform"].form["opened_version"].value()
    tag = TagFactory(slug="new-tag")
    data = change_form_data(
        lesson, [], links=[{"position": 1, "title": "Further", "url": "https://x.example"}]
    )
    data.update(tags=[str(tag.id)], opened_version=opened)
    assert (
        client.post(reverse("admin:lessons_lesson_change", args=[lesson.id]), data).status_code
        == 302
    )

    # (setting the tags records a version of its own, just before the save's)
    saved = [v for v in _history(client, lesson).context["versions"] if v.version > opened]

    fields = [(f.field, f.old, f.new) for v in saved for f in v.fields]
    assert fields == [("tags", "old-tag", "new-tag")]
    assert [(b.label, b.action) for v in saved for b in v.blocks] == [("Link 1 (Further)", "added")]


def test_a_change_at_the_end_of_a_long_paragraph_is_shown_whole_and_marked(client, editor):
    lesson = LessonFactory()
    opening = "A long paragraph about attention. " * 10
    block = ProseBlockFactory(lesson=lesson, position=1, markdown=f"{opening}The end.\n")
    lesson.save()
    block.markdown = f"{opening}The new end.\n"
    block.save()
    lesson.save()

    body = _history(client, lesson).content.decode()

    assert "The <ins>new </ins>end." in body
    assert f"{opening.strip()} The end." in body
