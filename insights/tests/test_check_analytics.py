"""How learners answer a lesson's checks, on its analytics page: the wrong answers that no
feedback covers yet, most common first, for the editor to write feedback where it is needed."""

import pytest
from django.urls import reverse

from accounts.tests.factories import UserFactory
from exercises import selectors as exercise_selectors
from exercises.services.checks import answer_check, reveal_check
from insights import selectors
from lessons.checks import item_id
from lessons.tests.factories import (
    NUMERIC_CHECK,
    ORDERING_CHECK,
    CheckBlockFactory,
    LessonFactory,
)

pytestmark = pytest.mark.django_db

# Two right options: picking only one of them is wrong, and no option's explanation says why.
TWO_RIGHT = {
    "key": "what-grows",
    "type": "choice",
    "explanation": "Both grow with d_model.",
    "options": [
        {"text": "The embedding table", "correct": True, "explanation": "vocab x d_model."},
        {"text": "Each attention matrix", "correct": True, "explanation": "d_model x d_model."},
        {"text": "The vocabulary", "explanation": "The tokenizer fixes it."},
    ],
}


def _option(text: str) -> str:
    return item_id(TWO_RIGHT["key"], text)


def _items(*texts: str) -> dict:
    return {"items": [item_id(ORDERING_CHECK["key"], text) for text in texts]}


@pytest.fixture
def answered():
    """A lesson asking three checks, answered by learners a..f."""
    lesson = LessonFactory(title="Heads", xp=30)
    numeric = CheckBlockFactory(lesson=lesson, position=1, spec=dict(NUMERIC_CHECK))
    choice = CheckBlockFactory(lesson=lesson, position=2, spec=dict(TWO_RIGHT))
    ordering = CheckBlockFactory(lesson=lesson, position=3, spec=dict(ORDERING_CHECK))
    a, b, c, d, e, f = (UserFactory() for _ in range(6))

    def say(user, check, *answers):
        for given in answers:
            answer_check(user=user, check_id=check.id, answer=given)

    # numeric (64; 3,072 has feedback): a right at once; b after 768 and 3,072; c and d wrong
    # with 768; e tries six numbers nobody else gives; f reveals the answer, then gives it.
    say(a, numeric, {"value": "64"})
    say(b, numeric, {"value": "768"}, {"value": "3,072"}, {"value": "64"})
    say(c, numeric, {"value": "768"}, {"value": "768.0"}, {"value": "100"})
    say(d, numeric, {"value": "768"})
    say(e, numeric, *({"value": str(n)} for n in (1, 2, 3, 4, 5, 6)))
    say(f, numeric, {"value": "1"}, {"value": "2"}, {"value": "3"})
    reveal_check(user=f, check_id=numeric.id)
    say(f, numeric, {"value": "64"})
    # choice: a picks both right options; b only one of them (twice), then the wrong one.
    say(a, choice, {"options": [_option("The embedding table"), _option("Each attention matrix")]})
    say(b, choice, {"options": [_option("The embedding table")]})
    say(b, choice, {"options": [_option("The embedding table")]})
    say(b, choice, {"options": [_option("The vocabulary")]})
    # ordering: a swaps the first two.
    say(a, ordering, _items("Embeddings", "Token ids", "Blocks", "Logits"))
    return {"lesson": lesson, "checks": (numeric, choice, ordering)}


def test_check_figures_count_learners_answers_and_uncovered_wrong_answers(
    answered, django_assert_num_queries
):
    numeric, choice, ordering = answered["checks"]

    with django_assert_num_queries(2):
        figures = exercise_selectors.check_figures(
            check_ids=[numeric.id, choice.id, ordering.id, 999_999]
        )

    assert figures[numeric.id] == exercise_selectors.CheckFigures(
        learners=6,
        answers=1 + 3 + 3 + 1 + 6 + 4,
        right=2,  # a and b: f saw the answer first
        right_first_try=1,
        revealed=1,
        # 768 four times (768.0 reads alike); then ties by their text: covered 3,072 is not
        uncovered_wrong=[("768", 4), ("1", 2), ("2", 2), ("3", 2), ("100", 1)],
    )
    assert figures[choice.id].uncovered_wrong == [
        (_option("The embedding table"), 2)  # the wrong option has its explanation
    ]
    assert figures[choice.id].right_first_try == 1
    assert figures[ordering.id].uncovered_wrong == [
        (",".join(_items("Embeddings", "Token ids", "Blocks", "Logits")["items"]), 1)
    ]
    assert figures[999_999] == exercise_selectors.CheckFigures(0, 0, 0, 0, 0, [])


def test_no_checks_cost_no_queries(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert exercise_selectors.check_figures(check_ids=[]) == {}


def test_the_lesson_figures_name_each_checks_wrong_answers_in_its_own_words(
    answered, django_assert_num_queries
):
    lesson = answered["lesson"]

    # the lesson's quest, the quest's 7 (no exercise), its weeks, its reports, its checks and
    # their 2: the same for any number of checks and learners
    with django_assert_num_queries(13):
        data = selectors.lesson_analytics(lesson_id=lesson.id)
    with django_assert_num_queries(1):
        assert selectors.lesson_analytics(lesson_id=lesson.id)["checks"] == data["checks"]

    numeric, choice, ordering = data["checks"]
    assert (numeric["number"], numeric["key"], numeric["type"]) == (1, "head-dimension", "numeric")
    assert numeric["right_share"] == pytest.approx(2 / 6)
    assert numeric["first_try_share"] == pytest.approx(1 / 6)
    assert numeric["uncovered_wrong"][0] == {"answer": "768 dimensions", "times": 4}
    assert choice["uncovered_wrong"] == [{"answer": "The embedding table", "times": 2}]
    assert ordering["uncovered_wrong"] == [
        {"answer": "Embeddings → Token ids → Blocks → Logits", "times": 1}
    ]


def test_a_number_reads_with_its_thousands_and_a_changed_option_says_so():
    numeric = {"key": "k", "type": "numeric", "unit": "tokens"}

    assert selectors.answer_in_words(numeric, "12288") == "12,288 tokens"
    assert selectors.answer_in_words(numeric, "0.5") == "0.5 tokens"
    assert selectors.answer_in_words(TWO_RIGHT, "0123456789") == "(an option or item since changed)"


def test_the_lesson_page_lists_the_common_wrong_answers_without_feedback(
    client, editor, answered, django_assert_num_queries
):
    lesson = answered["lesson"]
    numeric = answered["checks"][0]
    url = reverse("admin:insights_questanalytics_lesson", args=[lesson.id])
    client.get(url)  # the session and the user are cached from here on

    # the 3 of the page (its lesson, the user's permissions) and the 13 of the figures
    with django_assert_num_queries(16):
        response = client.get(url, {"refresh": "1"})

    body = response.content.decode()
    assert response.status_code == 200
    checks = body[body.index('<section id="checks">') :]
    checks = checks[: checks.index("</section>")]
    edit = reverse("admin:lessons_lesson_change", args=[lesson.id])
    assert f'<a href="{edit}#block-{numeric.id}"><code>head-dimension</code></a>' in checks
    assert "<li>768 dimensions <small>(4 times)</small></li>" in checks
    assert "<li>100 dimensions <small>(1 time)</small></li>" in checks
    assert "3,072" not in checks  # it has its feedback
    assert '<td class="num">33%</td>' in checks  # right
    assert '<td class="num">17%</td>' in checks  # right at the first try
    assert "<li>The embedding table <small>(2 times)</small></li>" in checks
    assert "Embeddings → Token ids → Blocks → Logits" in checks


def test_a_lesson_without_checks_says_so(client, editor):
    lesson = LessonFactory()

    body = client.get(
        reverse("admin:insights_questanalytics_lesson", args=[lesson.id])
    ).content.decode()

    assert "This lesson asks no checks." in body
