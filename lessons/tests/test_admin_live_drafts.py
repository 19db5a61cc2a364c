"""Drafts of live lessons through the admin's pages, as an editor clicks through them (walked in
a browser by web/e2e/admin-live-draft.spec.ts)."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from lessons.models import Lesson
from lessons.tests.admin_pages import posted_unchanged
from lessons.tests.factories import CheckBlockFactory, LessonFactory, ProseBlockFactory

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def live():
    lesson = LessonFactory(slug="live-lesson", title="Live title", published=True)
    ProseBlockFactory(lesson=lesson, position=1, markdown="Live words.\n")
    CheckBlockFactory(lesson=lesson, position=2)
    lesson.save()
    return lesson


def _change(lesson_id: int) -> str:
    return reverse("admin:lessons_lesson_change", args=[lesson_id])


def _make_draft(client, live) -> Lesson:
    response = client.post(reverse("admin:lessons_lesson_make_draft", args=[live.pk]))
    draft = Lesson.objects.get(draft_of=live)
    assert response.status_code == 302
    assert response["Location"] == _change(draft.pk)
    return draft


def _save_title(client, lesson_id: int, title: str) -> None:
    data = posted_unchanged(client.get(_change(lesson_id)))
    data["title"] = title
    response = client.post(_change(lesson_id), data)
    assert response.status_code == 302, response.context and response.context["errors"]


def test_a_live_lessons_page_offers_a_draft_then_links_to_it(client, editor, live):
    body = client.get(_change(live.pk)).content.decode()
    assert "Learners read this lesson now" in body
    assert reverse("admin:lessons_lesson_make_draft", args=[live.pk]) in body

    draft = _make_draft(client, live)

    body = client.get(_change(live.pk)).content.decode()
    assert "Open the draft" in body
    draft_page = client.get(_change(draft.pk)).content.decode()
    assert "This is a <strong>draft</strong> of the live lesson" in draft_page
    assert f'href="/lessons/{draft.slug}"' in draft_page  # previewed in the web app
    assert reverse("admin:lessons_lesson_publish_draft", args=[draft.pk]) in draft_page
    assert 'name="exercises-TOTAL_FORMS"' in draft_page  # the draft's exercise is edited here
    assert 'name="exercises-TOTAL_FORMS"' in client.get(_change(live.pk)).content.decode()
    # A second click (another editor) opens the same draft.
    assert _make_draft(client, live) == draft


def test_an_unpublished_lessons_page_offers_no_draft(client, editor):
    lesson = LessonFactory(published=False)

    body = client.get(_change(lesson.pk)).content.decode()
    response = client.post(reverse("admin:lessons_lesson_make_draft", args=[lesson.pk]))

    assert "Edit a draft" not in body
    assert response.status_code == 302
    assert not Lesson.objects.filter(draft_of=lesson).exists()


def test_saving_the_draft_leaves_the_live_lesson_alone_until_published(client, editor, live):
    draft = _make_draft(client, live)

    _save_title(client, draft.pk, "Draft title")

    live.refresh_from_db()
    draft.refresh_from_db()
    assert (live.title, draft.title) == ("Live title", "Draft title")
    assert not draft.published  # its page cannot publish it: that is the live lesson's
    page = client.get(reverse("admin:lessons_lesson_publish_draft", args=[draft.pk]))
    assert page.status_code == 200
    assert "Publish now" in page.content.decode()

    response = client.post(
        reverse("admin:lessons_lesson_publish_draft", args=[draft.pk]), {"when": "now"}
    )

    assert response.status_code == 302
    assert response["Location"] == _change(live.pk)
    live.refresh_from_db()
    assert (live.title, live.slug, live.published) == ("Draft title", "live-lesson", True)
    assert not Lesson.objects.filter(pk=draft.pk).exists()


def test_publishing_over_a_live_save_is_refused_with_that_change_shown(client, editor, live):
    draft = _make_draft(client, live)
    _save_title(client, draft.pk, "Draft title")
    _save_title(client, live.pk, "Hotfixed live title")
    url = reverse("admin:lessons_lesson_publish_draft", args=[draft.pk])

    refused = client.post(url, {"when": "now"})

    assert refused.status_code == 409
    body = refused.content.decode()
    assert "since this draft was made" in body
    assert "Hotfixed live title" in body  # the live change, shown
    assert "Publish over the live changes" in body
    assert Lesson.objects.get(pk=live.pk).title == "Hotfixed live title"
    assert Lesson.objects.get(pk=draft.pk).title == "Draft title"  # nothing lost

    assert client.post(url, {"when": "now", "overwrite": "1"}).status_code == 302
    assert Lesson.objects.get(pk=live.pk).title == "Draft title"


def test_a_draft_is_scheduled_and_unscheduled_from_its_publish_page(client, editor, live):
    draft = _make_draft(client, live)
    url = reverse("admin:lessons_lesson_publish_draft", args=[draft.pk])

    with time_machine.travel(NOON, tick=False):
        past = client.post(url, {"when": "at", "at": "2026-03-02T11:00"})
        garbled = client.post(url, {"when": "at", "at": "tomorrow-ish"})
        scheduled = client.post(url, {"when": "at", "at": "2026-03-02T12:10"})

    assert past.status_code == 400
    assert garbled.status_code == 400
    assert "YYYY-MM-DD HH:MM" in garbled.content.decode()
    assert scheduled.status_code == 302
    draft.refresh_from_db()
    assert draft.draft_publish_at == NOON + timedelta(minutes=10)
    assert "Scheduled for 2026-03-02 12:10 UTC" in client.get(_change(draft.pk)).content.decode()

    assert client.post(url, {"when": "unschedule"}).status_code == 302
    draft.refresh_from_db()
    assert draft.draft_publish_at is None


def test_drafts_stay_out_of_the_lesson_list_unless_asked_for(client, editor, live):
    draft = _make_draft(client, live)
    _save_title(client, draft.pk, "Draft title")
    changelist = reverse("admin:lessons_lesson_changelist")

    default = client.get(changelist).context["cl"].result_list
    only = client.get(changelist, {"live_draft": "only"}).context["cl"].result_list

    assert list(default) == [live]
    assert list(only) == [draft]


def test_the_publish_page_of_a_lesson_that_is_no_draft_says_so(client, editor, live):
    response = client.get(reverse("admin:lessons_lesson_publish_draft", args=[live.pk]))

    assert response.status_code == 302
    assert response["Location"] == _change(live.pk)
