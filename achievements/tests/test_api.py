import pytest
from django.utils import timezone

from achievements.models import RuleKind
from achievements.tests import metrics
from achievements.tests.factories import AchievementFactory, AchievementUnlockFactory

URL = "/api/v1/achievements/"


@pytest.fixture
def catalogue(no_seed):
    """One achievement of every kind, in display order."""
    achievements = {}
    for position, kind in enumerate(RuleKind):
        fields = {"threshold": 10} if kind != RuleKind.TAG_COMPLETED else {"threshold": None}
        if kind == RuleKind.QUEST_PERCENT:
            fields["threshold"] = 50
        if kind == RuleKind.TAG_COMPLETED:
            fields["tag_slug"] = metrics.TAG
        achievements[kind] = AchievementFactory(
            slug=kind.replace("_", "-"), rule_kind=kind, position=position, **fields
        )
    return achievements


def _by_slug(response) -> dict:
    return _by_slug_from(response.json())


def test_anonymous_callers_see_every_achievement_locked_without_progress(api_client, catalogue):
    response = api_client.get(URL)

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == len(RuleKind)
    assert body["unlocked_count"] == 0
    assert [item["slug"] for item in body["results"]] == [a.slug for a in catalogue.values()]
    assert all(item["unlocked"] is False for item in body["results"])
    assert all(item["unlocked_at"] is None for item in body["results"])
    assert all(item["progress"] is None for item in body["results"])


def test_an_achievement_describes_itself_and_its_rule(api_client, no_seed, settings):
    AchievementFactory(
        slug="halfway",
        title="Halfway",
        description="Half the quest.",
        icon="layers",
        xp_bonus=50,
        rule_kind=RuleKind.QUEST_PERCENT,
        threshold=50,
    )

    (item,) = api_client.get(URL).json()["results"]

    assert item == {
        "slug": "halfway",
        "title": "Halfway",
        "description": "Half the quest.",
        "icon": "layers",
        "xp_bonus": 50,
        "rule": {
            "kind": "quest_percent",
            "summary": f"{settings.DEMO_QUEST_SLUG} ≥ 50%",
            "threshold": 50,
            "tag": None,
            "quest": settings.DEMO_QUEST_SLUG,
        },
        "unlocked": False,
        "unlocked_at": None,
        "progress": None,
    }


def test_signed_in_learners_see_their_progress(user_client, user, catalogue):
    metrics.tag_completed(user, 1)
    metrics.lessons_completed(user, 3)
    metrics.comments_posted(user, 2)

    items = _by_slug(user_client.get(URL))

    assert items["lessons-completed"]["progress"] == {"current": 3, "target": 10}
    assert items["comments-posted"]["progress"] == {"current": 2, "target": 10}
    assert items["tag-completed"]["progress"] == {"current": 1, "target": 3}
    assert items["reports-accepted"]["progress"] == {"current": 0, "target": 10}
    assert items["lessons-completed"]["unlocked"] is False


def test_quest_progress_is_a_percentage(user_client, user, catalogue):
    metrics.quest_percent(user, 25)

    items = _by_slug(user_client.get(URL))

    assert items["quest-percent"]["progress"] == {"current": 25, "target": 50}


def test_unlocked_achievements_say_when_and_show_full_progress(user_client, user, catalogue):
    unlock = AchievementUnlockFactory(user=user, achievement=catalogue[RuleKind.COMMENTS_POSTED])

    body = user_client.get(URL).json()
    item = _by_slug_from(body)["comments-posted"]

    assert body["unlocked_count"] == 1
    assert item["unlocked"] is True
    assert item["unlocked_at"] == timezone.localtime(unlock.unlocked_at).isoformat().replace(
        "+00:00", "Z"
    )
    assert item["progress"] == {"current": 10, "target": 10}


def test_progress_is_capped_at_the_target(user_client, user, catalogue):
    metrics.comments_posted(user, 12)

    items = _by_slug(user_client.get(URL))

    assert items["comments-posted"]["progress"] == {"current": 10, "target": 10}


def test_another_learners_unlocks_do_not_show(user_client, catalogue):
    AchievementUnlockFactory(achievement=catalogue[RuleKind.COMMENTS_POSTED])

    items = _by_slug(user_client.get(URL))

    assert items["comments-posted"]["unlocked"] is False


def test_inactive_achievements_are_hidden(api_client, no_seed):
    AchievementFactory(slug="shown")
    AchievementFactory(slug="hidden", is_active=False)

    body = api_client.get(URL).json()

    assert [item["slug"] for item in body["results"]] == ["shown"]


def test_query_count_does_not_grow_with_the_number_of_achievements(
    user_client, user, catalogue, django_assert_max_num_queries
):
    for step in range(20):
        AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=step + 1)
        AchievementFactory(rule_kind=RuleKind.TAG_COMPLETED, threshold=None, tag_slug=f"t{step}")
    metrics.demo_quest()
    AchievementUnlockFactory(user=user, achievement=catalogue[RuleKind.XP_TOTAL])

    # The achievements with the learner's unlocks, then one per metric (see test_services).
    with django_assert_max_num_queries(11):
        response = user_client.get(URL)

    assert response.json()["count"] == len(RuleKind) + 40


def test_anonymous_listing_is_one_query(api_client, catalogue, django_assert_num_queries):
    with django_assert_num_queries(1):
        api_client.get(URL)


def test_a_repeated_request_with_the_etag_answers_304(user_client, catalogue):
    first = user_client.get(URL)

    second = user_client.get(URL, HTTP_IF_NONE_MATCH=first["ETag"])

    assert second.status_code == 304


@pytest.mark.django_db
def test_the_seeded_ten_are_listed(api_client):
    assert api_client.get(URL).json()["count"] == 10


def _by_slug_from(body: dict) -> dict:
    return {item["slug"]: item for item in body["results"]}
