"""A renamed lesson keeps its old address: the API and the lesson page redirect to the new one."""

import pytest
from django.test import Client
from django.urls import reverse

from lessons import services
from lessons.models import Lesson, LessonOldSlug
from lessons.tests.admin_pages import posted_unchanged
from lessons.tests.factories import LessonFactory, ProseBlockFactory

pytestmark = pytest.mark.django_db


def _rename_in_admin(client: Client, lesson: Lesson, slug: str) -> None:
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    data = {**posted_unchanged(client.get(url)), "slug": slug}
    assert client.post(url, data).status_code == 302
    lesson.refresh_from_db()
    assert lesson.slug == slug


def test_the_old_slug_of_a_lesson_renamed_in_the_admin_answers_301_to_the_new(client, editor):
    lesson = LessonFactory(slug="d-model")
    ProseBlockFactory(lesson=lesson, position=1)
    _rename_in_admin(client, lesson, "embedding-dimension")

    response = Client().get("/api/v1/lessons/d-model/")

    assert response.status_code == 301
    assert response["Location"] == "/api/v1/lessons/embedding-dimension/"
    assert "max-age=3600" in response["Cache-Control"]
    assert response.json() == {
        "type": "moved",
        "slug": "embedding-dimension",
        "location": "/api/v1/lessons/embedding-dimension/",
    }
    followed = Client().get("/api/v1/lessons/d-model/", follow=True)
    assert followed.status_code == 200
    assert followed.json()["slug"] == "embedding-dimension"


def test_the_old_lesson_page_redirects_to_the_new_page(client, editor):
    lesson = LessonFactory(slug="d-model")
    _rename_in_admin(client, lesson, "embedding-dimension")

    for path in ("/lessons/d-model", "/lessons/d-model/"):
        response = Client().get(path)

        assert response.status_code == 301
        assert response["Location"] == "/lessons/embedding-dimension"


def test_renamed_twice_both_old_slugs_lead_to_the_lesson(client, editor):
    lesson = LessonFactory(slug="first")
    _rename_in_admin(client, lesson, "second")
    _rename_in_admin(client, lesson, "third")

    assert Client().get("/api/v1/lessons/first/")["Location"] == "/api/v1/lessons/third/"
    assert Client().get("/api/v1/lessons/second/")["Location"] == "/api/v1/lessons/third/"


def test_a_slug_taken_again_is_nobodys_old_address(client, editor):
    renamed = LessonFactory(slug="old")
    _rename_in_admin(client, renamed, "new")
    other = LessonFactory(slug="other")

    _rename_in_admin(client, other, "old")

    assert not LessonOldSlug.objects.filter(old_slug="old").exists()
    assert Client().get("/api/v1/lessons/old/").json()["slug"] == "old"


def test_renaming_back_drops_the_old_slug_that_is_live_again(client, editor):
    lesson = LessonFactory(slug="a")
    _rename_in_admin(client, lesson, "b")
    _rename_in_admin(client, lesson, "a")

    assert list(LessonOldSlug.objects.values_list("old_slug", "lesson")) == [("b", lesson.id)]
    assert Client().get("/api/v1/lessons/a/").status_code == 200


def test_a_revert_to_the_old_slug_keeps_the_new_one_answering(client, editor):
    lesson = LessonFactory(slug="before")
    first = Lesson.history.filter(id=lesson.id).latest("history_id").history_id
    _rename_in_admin(client, lesson, "after")

    services.revert_lesson(lesson_id=lesson.id, history_id=first)

    assert Client().get("/api/v1/lessons/after/")["Location"] == "/api/v1/lessons/before/"
    assert Client().get("/api/v1/lessons/before/").status_code == 200


def test_a_renamed_draft_answers_404_at_its_old_slug_to_learners_301_to_staff(client, editor):
    lesson = LessonFactory(slug="draft-old", published=False)
    _rename_in_admin(client, lesson, "draft-new")

    assert Client().get("/api/v1/lessons/draft-old/").status_code == 404
    assert Client().get("/lessons/draft-old").status_code == 404
    assert client.get("/api/v1/lessons/draft-old/")["Location"] == "/api/v1/lessons/draft-new/"


def test_an_unknown_slug_is_still_a_404_in_the_apis_shape(db):
    response = Client().get("/api/v1/lessons/never-was/")

    assert response.status_code == 404
    assert response.json()["type"] == "not_found"
