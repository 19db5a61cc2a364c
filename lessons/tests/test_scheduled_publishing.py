"""A lesson with "publish at": learners see it from that minute, with no editor present."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import IntegrityError, transaction
from django.urls import reverse

from lessons import services, tasks
from lessons.models import Lesson
from lessons.tests.factories import LessonFactory, ProseBlockFactory, QuestFactory
from lessons.tests.test_admin import change_form_data

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def scheduled(client, editor):
    """A draft scheduled through the admin's change form for 12:10, set at noon."""
    quest = QuestFactory(slug="scheduled-quest")
    LessonFactory(quest=quest, published=True, position=1, slug="already-out")
    lesson = LessonFactory(quest=quest, published=False, position=2, slug="comes-at-ten-past")
    ProseBlockFactory(lesson=lesson, position=1, markdown="Hello")
    with time_machine.travel(NOON, tick=False):
        data = change_form_data(lesson, [])
        data["publish_at_0"] = "2026-03-02"
        data["publish_at_1"] = "12:10:00"
        response = client.post(reverse("admin:lessons_lesson_change", args=[lesson.id]), data)
    assert response.status_code == 302, response.context and response.context["errors"]
    lesson.refresh_from_db()
    assert lesson.publish_at == NOON + timedelta(minutes=10)
    return lesson


def _slugs(api_client) -> list[str]:
    body = api_client.get("/api/v1/lessons/", {"quest": "scheduled-quest"}).json()
    return [item["slug"] for item in body["results"]]


def test_learners_see_a_scheduled_lesson_from_its_minute_without_the_beat(scheduled, api_client):
    url = f"/api/v1/lessons/{scheduled.slug}/"
    quest_url = "/api/v1/quests/scheduled-quest/"
    with time_machine.travel(NOON + timedelta(minutes=9, seconds=59), tick=False):
        assert api_client.get(url).status_code == 404
        assert _slugs(api_client) == ["already-out"]
        outline = api_client.get(quest_url).json()  # cached from here on
        assert scheduled.slug not in str(outline)

    with time_machine.travel(NOON + timedelta(minutes=10), tick=False):
        assert api_client.get(url).status_code == 200
        assert _slugs(api_client) == ["already-out", "comes-at-ten-past"]
        outline = api_client.get(quest_url).json()
        assert [lesson["published"] for lesson in outline["lessons"]] == [True, True]
        assert api_client.get(url).json()["published"] is True

    assert not Lesson.objects.get(pk=scheduled.pk).published  # nobody flipped it yet


def test_the_beat_task_publishes_due_lessons_in_the_history(scheduled):
    with time_machine.travel(NOON + timedelta(minutes=5), tick=False):
        assert tasks.publish_due_lessons() == 0
    with time_machine.travel(NOON + timedelta(minutes=11), tick=False):
        assert tasks.publish_due_lessons() == 1
        assert tasks.publish_due_lessons() == 0

    record = Lesson.history.filter(id=scheduled.pk).order_by("-history_id").first()
    assert record.published
    assert record.history_change_reason == "publish_at"
    assert record.history_user is None


def test_unpublishing_drops_a_schedule_that_has_come(scheduled, client):
    with time_machine.travel(NOON + timedelta(minutes=11), tick=False):
        client.post(
            reverse("admin:lessons_lesson_changelist"),
            {"action": "unpublish", "_selected_action": [scheduled.pk], "post": "yes"},
        )
        assert not Lesson.objects.published().filter(pk=scheduled.pk).exists()


# --- Unpublishing sticks (issue 41, item 2) ---------------------------------------------------


def _published_by_the_beat(scheduled) -> None:
    with time_machine.travel(NOON + timedelta(minutes=11), tick=False):
        assert tasks.publish_due_lessons() == 1


def _served(api_client, lesson) -> bool:
    return api_client.get(f"/api/v1/lessons/{lesson.slug}/").status_code == 200


def test_unticking_published_in_the_form_hides_a_lesson_whose_schedule_has_come(
    scheduled, client, api_client
):
    _published_by_the_beat(scheduled)

    with time_machine.travel(NOON + timedelta(minutes=20), tick=False):
        scheduled.refresh_from_db()
        url = reverse("admin:lessons_lesson_change", args=[scheduled.id])
        # As the browser sends the form back: "publish at" as the page shows it.
        shown = client.get(url).context["adminform"].form["publish_at"].value()
        data = change_form_data(scheduled, [])
        data.pop("published")
        if shown:
            data["publish_at_0"], data["publish_at_1"] = f"{shown:%Y-%m-%d}", f"{shown:%H:%M:%S}"
        response = client.post(url, data)
        assert response.status_code == 302, response.context and response.context["errors"]
        assert not _served(api_client, scheduled)
    with time_machine.travel(NOON + timedelta(minutes=30), tick=False):
        assert tasks.publish_due_lessons() == 0
        assert not _served(api_client, scheduled)
    assert not Lesson.objects.get(pk=scheduled.pk).published


def test_unticking_published_in_the_change_list_hides_a_lesson_whose_schedule_has_come(
    scheduled, client, api_client
):
    _published_by_the_beat(scheduled)

    with time_machine.travel(NOON + timedelta(minutes=20), tick=False):
        response = client.post(
            reverse("admin:lessons_lesson_changelist") + f"?q={scheduled.slug}",
            {
                "form-TOTAL_FORMS": "1",
                "form-INITIAL_FORMS": "1",
                "form-MIN_NUM_FORMS": "0",
                "form-MAX_NUM_FORMS": "1000",
                "form-0-id": str(scheduled.pk),
                "form-0-position": str(scheduled.position),
                "_save": "Save",
            },
        )
        assert response.status_code == 302, response.content
        assert not _served(api_client, scheduled)
    with time_machine.travel(NOON + timedelta(minutes=30), tick=False):
        assert tasks.publish_due_lessons() == 0
        assert not _served(api_client, scheduled)


def test_a_lesson_is_public_by_one_rule_whatever_published_it():
    # Published by hand, by the beat or by the loader: no schedule is left behind to publish
    # it again; a schedule stays only on a lesson not published yet.
    quest = QuestFactory()
    later = NOON + timedelta(days=1)
    waiting = LessonFactory(quest=quest, published=False, publish_at=later, slug="waiting")
    ticked = LessonFactory.build(quest=quest, published=True, publish_at=later, slug="ticked")
    LessonFactory(quest=quest, published=False, publish_at=NOON, slug="by-beat")
    by_action = LessonFactory(quest=quest, published=False, publish_at=later, slug="by-action")

    ticked.full_clean()  # what the change form and the change list do
    ticked.save()
    with time_machine.travel(NOON + timedelta(minutes=1), tick=False):
        assert tasks.publish_due_lessons() == 1
    services.set_published(lesson_ids=[by_action.pk], published=True)
    with transaction.atomic():
        upsert_from_files = services.upsert_lesson(
            quest=quest,
            position=9,
            slug="waiting",
            title="Waiting",
            summary="",
            minutes=5,
            xp=10,
            published=True,
            tags=[],
            blocks=[],
            links=[],
        )[0]

    assert sorted(Lesson.objects.values_list("slug", "published", "publish_at")) == [
        ("by-action", True, None),
        ("by-beat", True, None),
        ("ticked", True, None),
        ("waiting", True, None),
    ]
    assert upsert_from_files.pk == waiting.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        Lesson.objects.filter(pk=waiting.pk).update(publish_at=later)
