"""Completions synced without answers pay nothing on lessons that ask checks."""

import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from lessons.tests.factories import CheckBlockFactory, LessonFactory, QuestFactory
from progress.models import LessonCompletion, XPAward

pytestmark = pytest.mark.django_db


def test_syncing_94_completions_without_answers_pays_no_xp(user_client, user):
    quest = QuestFactory(slug="transformers")
    lessons = [LessonFactory(quest=quest, xp=30) for _ in range(94)]
    for lesson in lessons:
        CheckBlockFactory(lesson=lesson)
    at = (timezone.now() - timedelta(minutes=10)).isoformat()
    events = [
        {
            "id": str(uuid.uuid4()),
            "type": "lesson_completed",
            "lesson": lesson.slug,
            "occurred_at": at,
        }
        for lesson in lessons
    ]

    response = user_client.post(
        reverse("me-progress-sync") + "?quest=transformers",
        {"device_id": "phone", "events": events},
        format="json",
    )

    assert response.status_code == 200
    body = response.json()
    assert body["xp"] == 0
    assert {r["reason"] for r in body["rejected"]} == {"checks_required"}
    assert len(body["rejected"]) == 94
    assert not XPAward.objects.filter(user=user).exists()
    assert not LessonCompletion.objects.filter(user=user).exists()


def test_lesson_without_checks_still_completes_by_sync(user_client, user):
    lesson = LessonFactory(xp=30)
    event = {
        "id": str(uuid.uuid4()),
        "type": "lesson_completed",
        "lesson": lesson.slug,
        "occurred_at": (timezone.now() - timedelta(minutes=1)).isoformat(),
    }

    user_client.post(
        reverse("me-progress-sync"), {"device_id": "phone", "events": [event]}, format="json"
    )

    assert XPAward.objects.get(user=user, source_type="lesson").amount == 30
