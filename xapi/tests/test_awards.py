"""Learning records of reviews, achievements and levels: each reaches the (fake) LRS as one
xAPI statement whose id names the row it was built from."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from achievements import services as achievement_services
from achievements.models import Achievement, AchievementUnlock
from achievements.tests.factories import AchievementFactory
from exercises.tests.conftest import answer, checks_of, right_answer
from progress import services as progress_services
from progress.models import XPAward
from reviews.models import ReviewLog
from reviews.tests.conftest import review, wrong_answer
from xapi import statements
from xapi.models import Statement
from xapi.tests.conftest import shape_errors

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
SITE = "http://127.0.0.1:8000"


def _sent(lrs, verb, path):
    return [
        s
        for s in lrs.stored.values()
        if s["verb"]["display"]["en-US"] == verb and s["object"]["id"].startswith(SITE + path)
    ]


def test_a_review_answered_is_an_answered_statement_with_its_rating(
    user_client, user, lesson, fake_lrs, django_capture_on_commit_callbacks
):
    check = checks_of(lesson)[1]
    with time_machine.travel(T0, tick=False):
        assert answer(user_client, check, wrong_answer(check)).status_code == 200

    with (
        time_machine.travel(T0 + timedelta(days=2), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = review(user_client, check, right_answer(check), duration_ms=4200)
    assert response.status_code == 200
    assert response.json()["scheduled"] is True

    log = ReviewLog.objects.get(source="review")
    [sent] = [s for s in fake_lrs.stored.values() if "review-rating" in str(s["result"])]
    assert shape_errors(sent) == []
    assert sent["id"] == str(statements.statement_id("reviews_reviewlog", str(log.pk)))
    assert sent["verb"]["id"] == "http://adlnet.gov/expapi/verbs/answered"
    assert sent["object"]["id"] == f"{SITE}/lessons/head-size#check-{check.pk}"
    assert sent["result"]["success"] is True
    assert sent["result"]["duration"] == "PT4.20S"
    assert sent["result"]["extensions"] == {
        f"{SITE}/xapi/review-rating": log.get_rating_display().lower()
    }
    assert sent["timestamp"] == "2026-05-06T08:00:00Z"


def test_a_review_not_due_sends_nothing(user_client, lesson, fake_lrs):
    check = checks_of(lesson)[1]
    with time_machine.travel(T0, tick=False):
        answer(user_client, check, wrong_answer(check))
        before = Statement.objects.count()
        response = review(user_client, check, right_answer(check))

    assert response.json()["scheduled"] is False
    assert Statement.objects.count() == before


def test_an_achievement_unlocked_is_an_earned_statement(
    user_client, user, lesson, fake_lrs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for check in checks_of(lesson):
            answer(user_client, check, right_answer(check))

    unlock = AchievementUnlock.objects.get(user=user, achievement__slug="first-token")
    [sent] = _sent(fake_lrs, "earned", "/achievements#")
    assert shape_errors(sent) == []
    assert sent["id"] == str(
        statements.statement_id(
            "achievements_achievementunlock", f"{user.pk}:{unlock.achievement_id}"
        )
    )
    assert sent["verb"]["id"] == "http://id.tincanapi.com/verb/earned"
    assert sent["object"]["id"] == f"{SITE}/achievements#first-token"
    assert sent["object"]["definition"] == {
        "type": "http://activitystrea.ms/schema/1.0/badge",
        "name": {"en-US": "First token"},
    }


def test_a_level_reached_is_an_earned_statement_named_by_the_award_that_crossed_it(
    user_client, user, lesson, fake_lrs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for check in checks_of(lesson):
            answer(user_client, check, right_answer(check))

    [sent] = _sent(fake_lrs, "earned", "/levels/")
    assert shape_errors(sent) == []
    assert sent["object"]["id"] == f"{SITE}/levels/1"
    assert sent["object"]["definition"]["name"] == {"en-US": "Level 1 · Embedding"}
    # The ledger row whose XP took the learner from below 120 to 120 or more.
    total, crossing = 0, None
    for award in XPAward.objects.filter(user=user).order_by("id"):
        if total < 120 <= total + award.amount:
            crossing = award
        total += award.amount
    assert crossing is not None
    assert sent["id"] == str(
        statements.statement_id(
            "progress_xpaward",
            f"{user.pk}:{crossing.source_type}:{crossing.source_id}:level-1",
        )
    )
    assert sent["result"]["extensions"][f"{SITE}/xapi/xp-total"] >= 120


def test_one_award_over_two_levels_sends_both_and_a_second_payment_none(user, fake_lrs):
    award = progress_services.Award(user.pk, "lesson", 999, 300, T0)

    progress_services.award_xp(awards=[award])
    progress_services.award_xp(awards=[award])

    levels = sorted(s.body["object"]["id"] for s in Statement.objects.filter(verb="earned"))
    assert levels == [f"{SITE}/levels/1", f"{SITE}/levels/2"]
    assert all(shape_errors(s.body) == [] for s in Statement.objects.all())


def test_unlocks_of_a_retroactive_award_and_of_a_pass_are_statements_too(user, fake_lrs):
    # A retroactive award (the admin's action) and an exercise pass insert their unlocks by
    # other statements than a lesson's evaluation: each is announced once.
    xp_rule = AchievementFactory(slug="xp-10", rule_kind="xp_total", threshold=10, xp_bonus=0)
    passes = AchievementFactory(
        slug="passes-1", rule_kind="exercises_passed", threshold=1, xp_bonus=0
    )
    progress_services.award_xp(awards=[progress_services.Award(user.pk, "lesson", 1, 20, T0)])

    achievement_services.award_achievement_to_batch(achievement_id=xp_rule.pk)
    achievement_services.award_achievement_to_batch(achievement_id=xp_rule.pk)
    achievement_services.evaluate_standings(
        standings=[
            achievement_services.Standing(
                user_id=user.pk, xp_total=20, streak_days=1, exercises_passed=1
            )
        ]
    )

    earned = [s for s in Statement.objects.filter(verb="earned") if "#" in s.body["object"]["id"]]
    assert sorted(s.body["object"]["id"] for s in earned) == [
        f"{SITE}/achievements#passes-1",
        f"{SITE}/achievements#xp-10",
    ]
    assert {s.pk for s in earned} == {
        statements.statement_id("achievements_achievementunlock", f"{user.pk}:{a.pk}")
        for a in Achievement.objects.filter(pk__in=[xp_rule.pk, passes.pk])
    }


def test_nothing_is_kept_while_no_lrs_is_configured(user_client, lesson, settings):
    settings.XAPI_LRS_URL = ""
    for check in checks_of(lesson):
        answer(user_client, check, right_answer(check))

    assert AchievementUnlock.objects.exists()
    assert Statement.objects.count() == 0
