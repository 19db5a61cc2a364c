"""Grade passback (AGS): a launched lesson's checks passed send its score to the fake
platform's line item, once per graded attempt, through the outbox's task."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from exercises.tests.conftest import right_answer
from lessons.tests.factories import CHOICE_CHECK, CheckBlockFactory, LessonFactory
from lti import services, tasks
from lti.models import GradeLink, ScorePost
from lti.tests.conftest import SCORE_SCOPE, continue_to_app, launch

pytestmark = pytest.mark.django_db


@pytest.fixture
def lesson():
    lesson = LessonFactory(slug="head-size", xp=20)
    CheckBlockFactory(lesson=lesson, position=1)
    CheckBlockFactory(lesson=lesson, position=2, spec=dict(CHOICE_CHECK))
    return lesson


def _checks(lesson):
    return list(lesson.blocks.filter(kind="check").order_by("position"))


def _answer(client, check, body):
    return client.post(reverse("check-answers", args=[check.pk]), {"answer": body}, format="json")


@pytest.fixture
def launched(api_client, registration, fake_platform, lesson):
    """The learner launched the lesson from the platform's line item and is signed in."""
    response = launch(
        api_client,
        fake_platform,
        custom={"lesson": lesson.slug},
        lineitem=fake_platform.lineitem_url("7"),
    )
    continue_to_app(api_client, response)
    return api_client


def test_launch_from_a_line_item_links_the_lessons_grades(launched, fake_platform, lesson):
    link = GradeLink.objects.get()

    assert link.lesson_id == lesson.pk
    assert link.lineitem_url == fake_platform.lineitem_url("7")
    assert link.platform_user_id == "platform-user-1"
    assert SCORE_SCOPE in link.scopes.split()


def test_passing_a_check_posts_the_lessons_share_fully_graded(
    launched, fake_platform, lesson, django_capture_on_commit_callbacks
):
    first = _checks(lesson)[0]

    with django_capture_on_commit_callbacks(execute=True):
        assert _answer(launched, first, right_answer(first)).status_code == 200

    [post] = fake_platform.score_posts
    assert post["path"] == "/lineitems/7/scores"
    assert post["authorization"] == "Bearer token-1"
    assert post["content_type"] == "application/vnd.ims.lis.v1.score+json"
    score = post["score"]
    assert score["userId"] == "platform-user-1"
    assert score["scoreGiven"] == 0.5
    assert score["scoreMaximum"] == 1.0
    assert score["gradingProgress"] == "FullyGraded"
    assert score["activityProgress"] == "InProgress"
    assert score["timestamp"] == ScorePost.objects.get().timestamp.isoformat()
    assert ScorePost.objects.get().sent_at is not None
    token_request = fake_platform.token_requests[0]
    assert token_request["grant_type"] == "client_credentials"
    assert SCORE_SCOPE in token_request["scope"]


def test_the_last_check_posts_the_completed_lesson(
    launched, fake_platform, lesson, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for check in _checks(lesson):
            _answer(launched, check, right_answer(check))

    scores = [post["score"] for post in fake_platform.score_posts]
    assert [(s["scoreGiven"], s["activityProgress"]) for s in scores] == [
        (0.5, "InProgress"),
        (1.0, "Completed"),
    ]


def test_wrong_answers_and_answers_after_a_pass_post_nothing(
    launched, fake_platform, lesson, django_capture_on_commit_callbacks
):
    first = _checks(lesson)[0]
    with django_capture_on_commit_callbacks(execute=True):
        _answer(launched, first, {"value": "3072"})
        _answer(launched, first, right_answer(first))
        _answer(launched, first, right_answer(first))

    assert len(fake_platform.score_posts) == 1


def test_a_learner_not_launched_from_a_platform_posts_nothing(
    user_client, lesson, fake_platform, django_capture_on_commit_callbacks
):
    first = _checks(lesson)[0]
    with django_capture_on_commit_callbacks(execute=True):
        _answer(user_client, first, right_answer(first))

    assert fake_platform.score_posts == []
    assert ScorePost.objects.count() == 0


def test_the_answer_does_not_wait_for_the_platform(
    launched, fake_platform, lesson, django_capture_on_commit_callbacks
):
    first = _checks(lesson)[0]

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert _answer(launched, first, right_answer(first)).status_code == 200

    assert fake_platform.score_posts == []
    assert len(callbacks) >= 1


def test_a_retry_resends_the_same_score_and_timestamp_and_the_platform_keeps_one(
    launched, fake_platform, lesson, django_capture_on_commit_callbacks
):
    first = _checks(lesson)[0]
    fake_platform.fail_next_scores = [503]
    with django_capture_on_commit_callbacks(execute=False):
        _answer(launched, first, right_answer(first))
    score = ScorePost.objects.get()

    with pytest.raises(services.PlatformUnavailable):
        services.send_score(score_id=score.pk)
    assert tasks.send_score.run(score.pk) is True

    sent = [post["score"] for post in fake_platform.score_posts]
    assert [post["status"] for post in fake_platform.score_posts] == [503, 200]
    assert sent[0] == sent[1]
    assert len(fake_platform.gradebook) == 1


def test_a_worker_killed_after_the_post_sends_the_same_score_again(
    launched, fake_platform, lesson, django_capture_on_commit_callbacks
):
    first = _checks(lesson)[0]
    with django_capture_on_commit_callbacks(execute=True):
        _answer(launched, first, right_answer(first))
    # The worker died between the platform's answer and recording it: the row is unsent.
    ScorePost.objects.update(sent_at=None)

    assert tasks.send_score.run(ScorePost.objects.get().pk) is True

    first_post, second_post = (post["score"] for post in fake_platform.score_posts)
    assert first_post == second_post
    assert len(fake_platform.gradebook) == 1


def test_a_sent_score_is_not_sent_again(
    launched, fake_platform, lesson, django_capture_on_commit_callbacks
):
    first = _checks(lesson)[0]
    with django_capture_on_commit_callbacks(execute=True):
        _answer(launched, first, right_answer(first))

    assert tasks.send_score.run(ScorePost.objects.get().pk) is False
    assert len(fake_platform.score_posts) == 1


def test_one_score_row_per_learner_line_item_and_attempt(
    launched, lesson, django_capture_on_commit_callbacks
):
    first = _checks(lesson)[0]
    with django_capture_on_commit_callbacks(execute=False):
        _answer(launched, first, right_answer(first))
    score = ScorePost.objects.get()

    with pytest.raises(IntegrityError), transaction.atomic():
        ScorePost.objects.create(
            grade_link=score.grade_link, checks_passed=1, checks_total=2, timestamp=score.timestamp
        )


def test_a_score_the_platform_refuses_is_kept_with_its_error_and_not_retried(
    launched, fake_platform, lesson, django_capture_on_commit_callbacks
):
    first = _checks(lesson)[0]
    fake_platform.fail_next_scores = [400]
    with django_capture_on_commit_callbacks(execute=True):
        _answer(launched, first, right_answer(first))

    score = ScorePost.objects.get()
    assert score.sent_at is None
    assert score.last_error.startswith("400")
    assert score.attempts == 1
