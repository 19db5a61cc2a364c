"""The field checks the curriculum files and the exercise specs share."""

import pytest

from learning_platform import plain_data


@pytest.fixture
def problems():
    return []


@pytest.fixture
def report(problems):
    return lambda key, message: problems.append((key, message))


def test_a_missing_key_gives_the_default_and_no_problem(report, problems):
    assert plain_data.text({}, "title", report, default="") == ""
    assert plain_data.integer({}, "xp", report, low=0, high=10, default=5) == 5
    assert plain_data.slug({}, "slug", report, default="lesson") == "lesson"
    assert problems == []


@pytest.mark.parametrize(
    ("check", "value", "message"),
    [
        (lambda d, r: plain_data.text(d, "k", r), "  ", "must be non-empty text"),
        (lambda d, r: plain_data.text(d, "k", r, max_length=3), "four", "at most 3 characters"),
        (lambda d, r: plain_data.integer(d, "k", r, low=1, high=9), True, "whole number from 1"),
        (lambda d, r: plain_data.integer(d, "k", r, low=1, high=9), 10, "whole number from 1"),
        (lambda d, r: plain_data.slug(d, "k", r), "Not A Slug", "lowercase letters"),
        (lambda d, r: plain_data.slug(d, "k", r, max_length=3), "abcd", "lowercase letters"),
    ],
)
def test_a_bad_value_is_reported_under_its_key(report, problems, check, value, message):
    assert check({"k": value}, report) is None

    assert len(problems) == 1
    assert problems[0][0] == "k"
    assert message in problems[0][1]


def test_empty_text_only_where_allowed(report, problems):
    assert plain_data.text({"k": None}, "k", report, allow_empty=True) == ""
    assert plain_data.text({"k": ""}, "k", report, allow_empty=True) == ""
    assert problems == []
