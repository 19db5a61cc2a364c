"""The checks of a lesson through the HTTP API: graded at once, XP once, completion by checks."""

import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exercises.models import CheckAnswer, CheckState
from exercises.tests.conftest import answer, checks_of, post_table, right_answer
from exercises.tests.factories import ExerciseFactory
from lessons.checks import item_id
from lessons.tests.factories import ORDERING_CHECK, CheckBlockFactory, LessonFactory
from progress.models import LessonCompletion, XPAward

pytestmark = pytest.mark.django_db


def test_lesson_shows_its_checks_without_their_answers(api_client, lesson):
    response = api_client.get(reverse("lesson-detail", args=[lesson.slug]))

    assert response.status_code == 200
    checks = [b for b in response.json()["blocks"] if b["kind"] == "check"]
    assert [c["check"]["type"] for c in checks] == ["numeric", "choice", "ordering"]
    text = str(checks)
    assert "3072" not in text
    assert "answer" not in checks[0]["check"]
    assert "correct" not in text
    assert "explanation" not in text
    assert checks[0]["html"].startswith("<p>How many dimensions")
    ordering = checks[2]["check"]["items"]
    assert [i["text"] for i in ordering] != ORDERING_CHECK["items"]


@pytest.mark.parametrize("typed", ["64", "64.0", "6.4e1", " 64 "])
def test_numeric_answer_reads_alike_however_written(user_client, lesson, typed):
    response = answer(user_client, checks_of(lesson)[0], {"value": typed})

    assert response.status_code == 200
    assert response.json()["correct"] is True


def test_numbers_with_thousands_separators_read_alike(user_client, lesson):
    check = checks_of(lesson)[0]
    check.spec = {**check.spec, "answer": 12288}
    check.save()

    for typed in ["12,288", "12288", "1.2288e4", "12 288"]:
        assert answer(user_client, check, {"value": typed}).json()["correct"] is True


def test_expected_wrong_answer_gets_the_editors_feedback(user_client, lesson):
    response = answer(user_client, checks_of(lesson)[0], {"value": "3,072"})

    body = response.json()
    assert body["correct"] is False
    assert body["feedback"] == ["3,072 is 4 x d_model, the FFN size, not the head size."]
    assert body["explanation"] is None
    assert CheckAnswer.objects.get().mistake == "mistake-1"


def test_unreadable_number_is_a_400_and_not_a_try(user_client, lesson):
    response = answer(user_client, checks_of(lesson)[0], {"value": "sixty-four"})

    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"
    assert not CheckState.objects.exists()


def test_first_right_answer_pays_the_checks_share_once(user_client, user, lesson):
    check = checks_of(lesson)[0]

    first = answer(user_client, check, right_answer(check)).json()
    again = answer(user_client, check, right_answer(check)).json()

    # 31 XP over 3 checks: 11, 10, 10.
    assert first["xp_awarded"] == 11
    assert first["explanation"] == "768 / 12 = 64."
    assert first["lesson"] == {
        "slug": lesson.slug,
        "checks_passed": 1,
        "checks_total": 3,
        "complete": False,
        "completed_now": False,
    }
    assert again["xp_awarded"] == 0
    assert XPAward.objects.filter(user=user, source_type="check").count() == 1


def test_choice_wrong_option_explains_itself(user_client, lesson):
    check = checks_of(lesson)[1]
    wrong = item_id(check.spec["key"], "Linearly")

    body = answer(user_client, check, {"options": [wrong]}).json()

    assert body["correct"] is False
    assert body["feedback"] == ["Each matrix is d_model by d_model, not a vector."]
    assert body["marks"][wrong]["correct"] is False


def test_unknown_option_is_a_400(user_client, lesson):
    response = answer(user_client, checks_of(lesson)[1], {"options": ["nope"]})

    assert response.status_code == 400


def test_ordering_wrong_says_how_many_are_in_place(user_client, lesson):
    check = checks_of(lesson)[2]
    right = right_answer(check)["items"]

    body = answer(user_client, check, {"items": [right[1], right[0], *right[2:]]}).json()

    assert body["correct"] is False
    assert body["feedback"] == ["2 of 4 items are in the right place."]


def test_passing_every_check_completes_the_lesson(user_client, user, lesson):
    bodies = [answer(user_client, c, right_answer(c)).json() for c in checks_of(lesson)]

    assert bodies[-1]["lesson"]["complete"] is True
    assert bodies[-1]["lesson"]["completed_now"] is True
    assert LessonCompletion.objects.filter(user=user, lesson=lesson).count() == 1
    assert sum(a.amount for a in XPAward.objects.filter(user=user)) >= 31
    assert sum(b["xp_awarded"] for b in bodies) == 31


def test_mark_complete_is_refused_on_a_lesson_with_checks(user_client, lesson):
    response = user_client.post(reverse("lesson-complete", args=[lesson.slug]))

    assert response.status_code == 409
    assert response.json()["type"] == "checks_required"


def test_reveal_is_refused_before_enough_wrong_tries(user_client, lesson):
    response = user_client.post(reverse("check-reveal", args=[checks_of(lesson)[0].pk]))

    assert response.status_code == 409
    assert response.json()["type"] == "reveal_not_allowed"


def test_revealed_check_passes_without_xp(user_client, user, lesson):
    check = checks_of(lesson)[0]
    for _ in range(3):
        assert answer(user_client, check, {"value": "1"}).json()["can_reveal"] in (True, False)

    reveal = user_client.post(reverse("check-reveal", args=[check.pk]))
    after = answer(user_client, check, right_answer(check)).json()

    assert reveal.status_code == 200
    assert reveal.json()["solution"] == {"value": "64", "unit": "dimensions"}
    assert after["passed"] is True
    assert after["revealed"] is True
    assert after["xp_awarded"] == 0
    assert not XPAward.objects.filter(user=user, source_type="check").exists()


def test_signed_out_answer_is_graded_and_not_recorded(api_client, lesson):
    check = checks_of(lesson)[0]

    body = answer(api_client, check, right_answer(check)).json()

    assert body["correct"] is True
    assert body["lesson"] is None
    assert body["tries"] == 0
    assert not CheckAnswer.objects.exists()


def test_check_of_a_draft_lesson_is_a_404(api_client, lesson):
    lesson.published = False
    lesson.save()

    response = answer(api_client, checks_of(lesson)[0], {"value": "64"})

    assert response.status_code == 404


def test_standings_list_each_check_in_order(user_client, lesson):
    check = checks_of(lesson)[0]
    answer(user_client, check, {"value": "1"})

    response = user_client.get(reverse("me-lesson-checks", args=[lesson.slug]))

    rows = response.json()["checks"]
    assert [r["check"] for r in rows] == [c.pk for c in checks_of(lesson)]
    assert rows[0]["tries"] == 1
    assert rows[0]["passed"] is False
    assert rows[1]["tries"] == 0
    assert rows[0]["xp_awarded"] == 0


def test_started_lessons_list_a_lesson_once_answered(user_client, lesson):
    answer(user_client, checks_of(lesson)[0], {"value": "1"})

    response = user_client.get(reverse("me-lessons-started"))

    assert response.json() == {"started": [lesson.slug]}


def _synced(check, body, *, at=None, revealed=False, event=None):
    return {
        "id": event or str(uuid.uuid4()),
        "check": check.pk,
        "answer": body,
        "answered_at": (at or timezone.now() - timedelta(minutes=5)).isoformat(),
        "revealed": revealed,
    }


def sync(client, answers, device="phone"):
    return client.post(
        reverse("me-checks-sync"), {"device_id": device, "answers": answers}, format="json"
    )


def test_synced_right_answers_pay_once_however_often_sent(user_client, user, lesson):
    answers = [_synced(c, right_answer(c)) for c in checks_of(lesson)]

    first = sync(user_client, answers).json()
    again = sync(user_client, answers).json()
    other_device = sync(
        user_client, [{**a, "id": str(uuid.uuid4())} for a in answers], device="laptop"
    ).json()

    assert first["xp_awarded"] == 31
    assert first["accepted"] == 3
    assert first["lessons_completed"] == [lesson.slug]
    assert again["xp_awarded"] == 0
    assert again["duplicates"] == 3
    assert other_device["xp_awarded"] == 0
    assert sum(a.amount for a in XPAward.objects.filter(user=user, source_type="check")) == 31


def test_synced_wrong_or_revealed_answers_pay_nothing(user_client, user, lesson):
    numeric, choice, _ = checks_of(lesson)
    body = sync(
        user_client,
        [_synced(numeric, {"value": "3072"}), _synced(choice, right_answer(choice), revealed=True)],
    ).json()

    assert body["xp_awarded"] == 0
    assert body["accepted"] == 2
    assert not XPAward.objects.filter(user=user).exists()


def test_synced_answers_reject_bad_ones_with_a_reason(user_client, lesson):
    numeric = checks_of(lesson)[0]
    future = timezone.now() + timedelta(hours=1)
    body = sync(
        user_client,
        [
            _synced(numeric, {"value": "what"}),
            _synced(numeric, {"value": "64"}, at=future),
            {**_synced(numeric, {"value": "64"}), "check": 999999},
        ],
    ).json()

    assert sorted(r["reason"] for r in body["rejected"]) == [
        "future_time",
        "invalid_answer",
        "unknown_check",
    ]


def test_sync_over_the_limit_is_a_413(user_client, lesson):
    check = checks_of(lesson)[0]
    response = sync(user_client, [_synced(check, {"value": "1"}) for _ in range(501)])

    assert response.status_code == 413


def test_a_table_passed_after_the_checks_completes_the_lesson(
    user_client, user, catalogue, django_capture_on_commit_callbacks
):
    lesson = LessonFactory(xp=20)
    CheckBlockFactory(lesson=lesson, position=1)
    exercise = ExerciseFactory(lesson=lesson)
    check = checks_of(lesson)[0]

    body = answer(user_client, check, right_answer(check)).json()
    assert body["lesson"]["complete"] is False
    with django_capture_on_commit_callbacks(execute=True):
        post_table(user_client, exercise)

    assert LessonCompletion.objects.filter(user=user, lesson=lesson).exists()
