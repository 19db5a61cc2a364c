"""Who else has a lesson open: the change page says so, and its heartbeat keeps it current."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.tests.factories import UserFactory
from lessons.models import EditorPresence
from lessons.services import PRESENCE_WINDOW
from lessons.tests.factories import LessonFactory

pytestmark = pytest.mark.django_db


def _editor_browser(email: str) -> Client:
    user = UserFactory(is_staff=True, email=email)
    user.groups.add(Group.objects.get(name="Content editors"))
    browser = Client()
    browser.force_login(user)
    return browser


def _beat(browser: Client, lesson_id: int):
    return browser.post(
        reverse("admin:lessons_lesson_presence", args=[lesson_id]),
        "{}",
        content_type="application/json",
    )


def test_the_change_page_names_the_other_editor_who_opened_it(client, editor):
    lesson = LessonFactory()
    other = _editor_browser("other.editor@example.com")
    assert other.get(reverse("admin:lessons_lesson_change", args=[lesson.id])).status_code == 200

    body = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id])).content.decode()

    line = body[body.index('id="lp-presence"') :].split("</p>")[0]
    assert "hidden" not in line.split(">")[0]
    assert "Also open by other.editor@example.com (seen " in line


def test_an_editor_alone_on_the_page_sees_no_one_listed(client, editor):
    lesson = LessonFactory()

    body = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id])).content.decode()

    line = body[body.index('id="lp-presence"') :].split("</p>")[0]
    assert " hidden>" in line
    assert "Also open by" not in line


def test_the_heartbeat_answers_the_others_seen_lately_not_the_editor_nor_who_left(client, editor):
    lesson = LessonFactory()
    _beat(_editor_browser("here@example.com"), lesson.id)
    _beat(_editor_browser("gone@example.com"), lesson.id)
    EditorPresence.objects.filter(editor__email="gone@example.com").update(
        last_seen=EditorPresence.objects.get(editor__email="gone@example.com").last_seen
        - PRESENCE_WINDOW
        - timedelta(seconds=1)
    )

    response = _beat(client, lesson.id)

    assert response.status_code == 200
    answer = response.json()
    assert [e["name"] for e in answer["editors"]] == ["here@example.com"]
    assert answer["heartbeat_seconds"] == 30


def test_beating_again_moves_the_editors_one_row_on(client, editor):
    lesson = LessonFactory()
    _beat(client, lesson.id)
    first = EditorPresence.objects.get(lesson=lesson).last_seen

    _beat(client, lesson.id)
    _beat(client, lesson.id)

    rows = list(EditorPresence.objects.filter(lesson=lesson))
    assert len(rows) == 1
    assert rows[0].last_seen >= first


def test_a_heartbeat_for_a_lesson_that_is_gone_is_a_404_in_the_apis_shape(client, editor):
    response = _beat(client, 999_999)

    assert response.status_code == 404
    assert response.json()["type"] == "not_found"


def test_a_heartbeat_needs_the_csrf_token(editor):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(editor)

    response = _beat(browser, LessonFactory().id)

    assert response.status_code == 403
    assert "type" in response.json()


def test_staff_who_may_not_change_lessons_get_a_403(db):
    browser = Client()
    browser.force_login(UserFactory(is_staff=True))

    response = _beat(browser, LessonFactory().id)

    assert response.status_code == 403


def test_a_heartbeat_costs_three_queries_of_the_lessons_tables(client, editor):
    lesson = LessonFactory()
    _beat(_editor_browser("here@example.com"), lesson.id)

    with CaptureQueriesContext(connection) as queries:
        response = _beat(client, lesson.id)

    assert response.status_code == 200
    # the lesson exists, the upsert, the others seen lately (with their names)
    assert len([q for q in queries.captured_queries if '"lessons_' in q["sql"]]) == 3


def test_staff_who_may_only_view_lessons_are_not_listed_nor_beat(db):
    lesson = LessonFactory()
    viewer = UserFactory(is_staff=True, email="viewer@example.com")
    viewer.user_permissions.add(Permission.objects.get(codename="view_lesson"))
    browser = Client()
    browser.force_login(viewer)

    body = browser.get(reverse("admin:lessons_lesson_change", args=[lesson.id])).content.decode()

    assert 'id="lp-presence"' not in body
    assert not EditorPresence.objects.filter(lesson=lesson).exists()
