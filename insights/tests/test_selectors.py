"""The analytics figures, computed by aggregates, on a quest whose answers are known."""

from datetime import date

import pytest

from insights import selectors

pytestmark = pytest.mark.django_db


def test_quest_figures_lesson_by_lesson(quest_figures):
    data = selectors.quest_analytics(quest_id=quest_figures["quest"].id)

    rows = data["lessons"]
    assert [(r["number"], r["completed"], r["stopped_here"], r["open_reports"]) for r in rows] == [
        (1, 3, 1, 0),
        (2, 3, 2, 2),
        (3, 1, 1, 1),
    ]
    assert data["learners"] == 4


def test_completions_are_counted_per_week_with_empty_weeks_shown(quest_figures):
    weekly = selectors.quest_analytics(quest_id=quest_figures["quest"].id)["weekly"]

    assert len(weekly) == selectors.WEEKS_SHOWN
    assert weekly[-1] == (date(2026, 11, 23), 7)
    assert weekly[-2] == (date(2026, 11, 16), 0)


def test_median_time_from_first_submission_to_first_pass(quest_figures):
    exercise = selectors.quest_analytics(quest_id=quest_figures["quest"].id)["lessons"][1][
        "exercises"
    ][0]

    assert exercise["passed"] == 2
    assert exercise["passed_first_time"] == 1
    assert exercise["median_seconds"] == pytest.approx(300)


def test_wrong_cells_per_column_count_only_rows_naming_a_catalogue_model(quest_figures):
    exercise = selectors.quest_analytics(quest_id=quest_figures["quest"].id)["lessons"][1][
        "exercises"
    ][0]

    assert exercise["columns"] == [
        {"name": "d_model", "checked": 4, "wrong": 2, "wrong_share": 0.5},
        {"name": "n_layers", "checked": 3, "wrong": 0, "wrong_share": 0.0},
    ]
    assert exercise["hardest_column"] == "d_model"


def test_quest_figures_take_ten_queries_then_none_from_the_cache(
    quest_figures, django_assert_num_queries
):
    quest_id = quest_figures["quest"].id

    with django_assert_num_queries(10):
        cold = selectors.quest_analytics(quest_id=quest_id)
    with django_assert_num_queries(0):
        cached = selectors.quest_analytics(quest_id=quest_id)

    assert cached == cold


def test_a_quest_without_exercises_takes_seven_queries(django_assert_num_queries):
    from lessons.tests.factories import LessonFactory

    lesson = LessonFactory()

    with django_assert_num_queries(7):
        data = selectors.quest_analytics(quest_id=lesson.quest_id)

    assert data["lessons"][0]["exercises"] == []


def test_refresh_recomputes_past_the_cache(quest_figures, django_assert_num_queries):
    from lessons.tests.factories import LessonFactory

    quest = quest_figures["quest"]
    selectors.quest_analytics(quest_id=quest.id)
    LessonFactory(quest=quest, position=4)

    assert len(selectors.quest_analytics(quest_id=quest.id)["lessons"]) == 3
    assert len(selectors.quest_analytics(quest_id=quest.id, refresh=True)["lessons"]) == 4


def test_a_cache_outage_only_costs_the_queries(quest_figures):
    from django.test import override_settings

    dead_redis = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
        }
    }
    with override_settings(CACHES=dead_redis):
        data = selectors.quest_analytics(quest_id=quest_figures["quest"].id)

    assert data["learners"] == 4


def test_lesson_figures_add_its_weeks_and_reports(quest_figures, django_assert_num_queries):
    second = quest_figures["lessons"][1]

    with django_assert_num_queries(14):  # the lesson's quest, the quest's 10, its own 3
        data = selectors.lesson_analytics(lesson_id=second.id)
    with django_assert_num_queries(1):
        selectors.lesson_analytics(lesson_id=second.id)

    assert data["lesson"]["completed"] == 3
    assert data["weekly"][-1][1] == 3  # a, b and d, this week
    assert len(data["reports"]) == 2
