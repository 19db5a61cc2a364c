"""The achievement catalogue, cached for everyone, with each learner's statuses merged on:
never one learner's unlocks shown to another, never stale after an unlock or a comment."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.tests.factories import UserFactory
from achievements.models import RuleKind
from achievements.tests.factories import AchievementFactory, AchievementUnlockFactory
from community.services import post_comment
from lessons.tests.factories import LessonFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/achievements/"


def statuses(response) -> dict:
    return {a["slug"]: (a["unlocked"], a["progress"]) for a in response.json()["results"]}


def test_signed_out_reads_run_one_query_cold_and_none_warm(api_client, django_assert_num_queries):
    with django_assert_num_queries(1):
        cold = api_client.get(URL)
    with django_assert_num_queries(0):
        warm = api_client.get(URL)

    assert warm.json() == cold.json()
    assert warm.json()["count"] == 10


@pytest.mark.parametrize("extra", [0, 20])
def test_signed_in_reads_run_a_fixed_number_of_queries_cold_and_none_warm(
    client_for, user, extra, django_assert_num_queries
):
    for step in range(extra):
        AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=step + 1)
    client = client_for(user)
    with CaptureQueriesContext(connection) as cold:
        assert client.get(URL).status_code == 200

    with django_assert_num_queries(0):
        warm = client.get(URL)

    # The learner's statuses: the achievements with their unlocks (1) and the learner's
    # metrics the seeded rules use (7: lessons completed, lessons per tag, the demo quest, XP
    # and streak, exercises, comments, reports), whatever the number of achievements.
    assert len(cold) == 8
    assert warm.json()["count"] == 10 + extra


def test_a_second_learner_reads_the_cached_catalogue_building_only_their_statuses(client_for, user):
    client_for(user).get(URL)
    second = client_for(UserFactory())

    with CaptureQueriesContext(connection) as queries:
        assert second.get(URL).status_code == 200

    assert len(queries) == 8


def test_one_learners_unlocks_never_show_to_another_or_to_anonymous(client_for, api_client, user):
    achievement = AchievementFactory(slug="mine", rule_kind=RuleKind.XP_TOTAL, threshold=10**6)
    AchievementUnlockFactory(user=user, achievement=achievement)
    other = client_for(UserFactory())

    mine = client_for(user).get(URL)
    theirs = other.get(URL)
    anonymous = api_client.get(URL)

    assert statuses(mine)["mine"][0] is True
    assert mine.json()["unlocked_count"] == 1
    assert statuses(theirs)["mine"][0] is False
    assert theirs.json()["unlocked_count"] == 0
    assert statuses(anonymous)["mine"] == (False, None)
    assert len({mine["ETag"], theirs["ETag"], anonymous["ETag"]}) == 3


def test_a_posted_comment_moves_the_comments_progress_on_the_next_read(client_for, user):
    AchievementFactory(slug="talker", rule_kind=RuleKind.COMMENTS_POSTED, threshold=5)
    client = client_for(user)
    assert statuses(client.get(URL))["talker"][1] == {"current": 0, "target": 5}

    post_comment(author=user, lesson=LessonFactory(), body="Hello.")

    assert statuses(client.get(URL))["talker"][1] == {"current": 1, "target": 5}


def test_a_completion_unlocks_on_the_next_read(client_for, user):
    from progress.services import complete_lesson

    client = client_for(user)
    assert statuses(client.get(URL))["first-token"][0] is False

    complete_lesson(user=user, lesson_slug=LessonFactory().slug)

    assert statuses(client.get(URL))["first-token"][0] is True


def test_a_new_achievement_shows_on_the_next_read(client_for, api_client, user):
    api_client.get(URL)
    client_for(user).get(URL)

    AchievementFactory(slug="brand-new", rule_kind=RuleKind.XP_TOTAL, threshold=5)

    assert "brand-new" in statuses(api_client.get(URL))
    assert "brand-new" in statuses(client_for(user).get(URL))


def test_a_signed_in_read_answers_304_without_a_query_when_warm(
    client_for, user, django_assert_num_queries
):
    client = client_for(user)
    etag = client.get(URL)["ETag"]

    with django_assert_num_queries(0):
        assert client.get(URL, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_cached_answers_are_byte_for_byte_the_uncached_ones(client_for, api_client, settings):
    from progress.services import complete_lesson

    learner = UserFactory()
    complete_lesson(user=learner, lesson_slug=LessonFactory().slug)
    clients = [api_client, client_for(learner), client_for(UserFactory())]
    for client in clients:
        client.get(URL)

    cached = [client.get(URL).content for client in clients]
    settings.PAGE_CACHE = False
    built = [client.get(URL).content for client in clients]

    assert cached == built
    assert b'"unlocked":true' in cached[1]
