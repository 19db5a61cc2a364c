"""Any two versions of a lesson compared, through the admin's history pages (issue 39)."""

import pytest
from django.urls import reverse

from lessons.models import Lesson
from lessons.tests.factories import LessonFactory, ProseBlockFactory, QuestFactory
from lessons.tests.test_admin import change_form_data
from lessons.tests.test_history import _blocks_as_posted

pytestmark = pytest.mark.django_db


def _save(client, lesson: Lesson, rows: list[dict]) -> int:
    """Saves the change form as an editor would; returns the new version's history id."""
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    assert client.post(url, change_form_data(lesson, rows)).status_code == 302
    return Lesson.history.filter(id=lesson.id).latest("history_date", "history_id").history_id


@pytest.fixture
def three_versions(client, editor):
    """v1: two blocks; v2: the first block's last words changed; v3: the second block
    deleted and the title changed."""
    lesson = LessonFactory(quest=QuestFactory(), title="Embedding dimension")
    first = ProseBlockFactory(lesson=lesson, position=1, markdown="The width is 768 in GPT-2.")
    second = ProseBlockFactory(lesson=lesson, position=2, markdown="Deleted in the third.")
    v1 = _save(client, lesson, _blocks_as_posted(lesson))
    rows = _blocks_as_posted(lesson, **{str(first.id): {"markdown": "The width is 1024 here."}})
    v2 = _save(client, lesson, rows)
    lesson.title = "Embedding width"
    rows = _blocks_as_posted(lesson)
    rows[1]["DELETE"] = "on"
    v3 = _save(client, lesson, rows)
    return lesson, first, second, (v1, v2, v3)


def _compare(client, lesson, older, newer):
    url = reverse("admin:lessons_lesson_compare", args=[lesson.id])
    return client.get(url, {"older": older, "newer": newer})


def test_comparing_the_first_and_last_versions_shows_everything_between(client, three_versions):
    lesson, first, second, (v1, _, v3) = three_versions

    response = _compare(client, lesson, v1, v3)

    comparison = response.context["comparison"]
    assert [(c.field, c.old, c.new) for c in comparison.fields] == [
        ("title", "Embedding dimension", "Embedding width")
    ]
    assert [(b.block_id, b.action) for b in comparison.blocks] == [
        (first.id, "changed"),
        (second.id, "removed"),
    ]
    body = response.content.decode()
    assert "The width is <del>768</del> <del>in GPT-2.</del>" in body
    assert "The width is <ins>1024</ins> <ins>here." in body


def test_two_versions_compare_the_same_in_either_order(client, three_versions):
    lesson, _, _, (v1, v2, _) = three_versions

    forward = _compare(client, lesson, v1, v2).context["comparison"]
    backward = _compare(client, lesson, v2, v1).context["comparison"]

    assert (forward.older.history_id, forward.newer.history_id) == (v1, v2)
    assert (backward.older.history_id, backward.newer.history_id) == (v1, v2)
    assert [b.action for b in backward.blocks] == ["changed"]


def test_a_version_compared_with_itself_is_the_same(client, three_versions):
    lesson, _, _, (_, v2, _) = three_versions

    response = _compare(client, lesson, v2, v2)

    assert "The two versions are the same." in response.content.decode()


def test_the_history_page_offers_to_compare_two_versions(client, three_versions):
    lesson, _, _, (_, v2, v3) = three_versions

    body = client.get(reverse("admin:lessons_lesson_history", args=[lesson.id])).content.decode()

    assert "Compare two versions" in body
    assert f'<option value="{v2}" selected>' in body  # the one before the current
    assert f'<option value="{v3}" selected>' in body  # the current


def test_comparing_with_another_lessons_version_or_without_versions_is_404(client, three_versions):
    lesson, _, _, (v1, _, _) = three_versions
    other = LessonFactory().history.latest().history_id

    assert _compare(client, lesson, v1, other).status_code == 404
    assert _compare(client, lesson, v1, "latest").status_code == 404
    url = reverse("admin:lessons_lesson_compare", args=[lesson.id])
    assert client.get(url).status_code == 404


def test_a_learner_cannot_compare_versions(client, user):
    lesson = LessonFactory()
    version = lesson.history.latest().history_id
    client.force_login(user)

    response = _compare(client, lesson, version, version)

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
