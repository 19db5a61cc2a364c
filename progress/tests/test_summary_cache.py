"""/me/progress from the shared cache: served without SQL, rebuilt after every change."""

import pytest
from django.conf import settings

from achievements.tests.factories import AchievementFactory
from lessons.tests.factories import LessonFactory, QuestFactory
from progress import services
from progress.models import Level

pytestmark = pytest.mark.django_db


@pytest.fixture
def lessons():
    quest = QuestFactory(slug=settings.DEMO_QUEST_SLUG)
    return LessonFactory.create_batch(3, quest=quest, xp=30)


def progress(client, django_capture_on_commit_callbacks) -> dict:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.get("/api/v1/me/progress")
    assert response.status_code == 200
    return response.json()


def test_a_second_read_runs_no_sql(
    user_client, lessons, django_assert_num_queries, django_capture_on_commit_callbacks
):
    first = progress(user_client, django_capture_on_commit_callbacks)

    with django_assert_num_queries(0):
        second = user_client.get("/api/v1/me/progress").json()

    assert second == first


def test_completing_a_lesson_shows_on_the_next_read(
    user_client, user, lessons, django_capture_on_commit_callbacks
):
    progress(user_client, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.complete_lesson(user=user, lesson_slug=lessons[0].slug)

    body = progress(user_client, django_capture_on_commit_callbacks)

    assert body["lessons_completed"] == 1
    assert body["xp"] >= 30


def test_an_unlock_without_xp_shows_on_the_next_read(
    user_client, user, lessons, django_capture_on_commit_callbacks
):
    from achievements.models import Achievement, RuleKind
    from achievements.services import evaluate_achievements

    Achievement.objects.all().delete()
    AchievementFactory(rule_kind=RuleKind.LESSONS_COMPLETED, threshold=1, xp_bonus=0)
    with django_capture_on_commit_callbacks(execute=True):
        services.complete_lesson(user=user, lesson_slug=lessons[0].slug)
    assert progress(user_client, django_capture_on_commit_callbacks)["achievements_unlocked"] == 1
    AchievementFactory(rule_kind=RuleKind.LESSONS_COMPLETED, threshold=1, xp_bonus=0)
    progress(user_client, django_capture_on_commit_callbacks)

    with django_capture_on_commit_callbacks(execute=True):
        evaluate_achievements(user_id=user.id)

    assert progress(user_client, django_capture_on_commit_callbacks)["achievements_unlocked"] == 2


def test_a_new_level_curve_shows_on_the_next_read(
    user_client, lessons, django_capture_on_commit_callbacks
):
    before = progress(user_client, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        level = Level.objects.get(number=0)
        level.name = "Bit"
        level.save()

    after = progress(user_client, django_capture_on_commit_callbacks)

    assert before["level"]["name"] == "Token"
    assert after["level"]["name"] == "Bit"


def test_publishing_a_lesson_changes_the_total_on_the_next_read(
    user_client, lessons, django_capture_on_commit_callbacks
):
    draft = LessonFactory(quest=lessons[0].quest, published=False)
    assert progress(user_client, django_capture_on_commit_callbacks)["lessons_total"] == 3

    with django_capture_on_commit_callbacks(execute=True):
        from lessons.services import set_published

        set_published(lesson_ids=[draft.id], published=True)

    assert progress(user_client, django_capture_on_commit_callbacks)["lessons_total"] == 4


def test_learners_never_see_each_others_header(
    user_client, lessons, django_capture_on_commit_callbacks
):
    from rest_framework.test import APIClient

    from accounts.tests.factories import UserFactory

    other = UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        services.complete_lesson(user=other, lesson_slug=lessons[0].slug)
    other_client = APIClient()
    other_client.force_authenticate(other)

    mine = progress(user_client, django_capture_on_commit_callbacks)
    theirs = progress(other_client, django_capture_on_commit_callbacks)

    assert mine["lessons_completed"] == 0
    assert theirs["lessons_completed"] == 1


def test_a_new_achievement_changes_the_total_on_the_next_read(
    user_client, lessons, django_capture_on_commit_callbacks
):
    # Achievements count themselves into the header (progress.events.header_counts) and tell
    # progress when they change (their model is registered with versioned.bump_on_change).
    before = progress(user_client, django_capture_on_commit_callbacks)["achievements_total"]
    with django_capture_on_commit_callbacks(execute=True):
        AchievementFactory()

    assert progress(user_client, django_capture_on_commit_callbacks)["achievements_total"] == (
        before + 1
    )
