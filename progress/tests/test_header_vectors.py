"""The server's progress header and the app's signed-out one agree: both answer the shared
vectors in web/src/lib/header-vectors.json (the app's side: web/src/lib/header.test.ts)."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from lessons.tests.factories import LessonFactory, QuestFactory
from progress import services
from progress.models import LessonCompletion, Level

VECTORS = json.loads(
    (Path(settings.BASE_DIR) / "web" / "src" / "lib" / "header-vectors.json").read_text()
)["vectors"]


@pytest.mark.django_db
@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_the_server_header_answers_the_shared_vectors(vector, user, user_client):
    Level.objects.all().delete()
    Level.objects.bulk_create(Level(**step) for step in vector["curve"])
    quest = QuestFactory(slug=settings.DEMO_QUEST_SLUG)
    lessons = [LessonFactory(quest=quest, xp=xp) for xp in vector["lesson_xp"]]
    done = [lessons[i] for i in vector["completed"]]
    # The lessons' XP only: achievements' bonuses are the server's alone, never on the device.
    LessonCompletion.objects.bulk_create(
        LessonCompletion(user=user, lesson=lesson, completed_at=timezone.now()) for lesson in done
    )
    services.award_xp(
        awards=[
            services.Award(
                user_id=user.pk, source_type="lesson", source_id=lesson.pk, amount=lesson.xp
            )
            for lesson in done
        ]
    )

    header = user_client.get("/api/v1/me/progress").json()

    assert {key: header[key] for key in vector["expected"]} == vector["expected"]
