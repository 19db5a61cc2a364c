import pytest
from django.test import Client

from accounts.tests.factories import UserFactory
from achievements.models import Achievement, AchievementUnlock, RuleKind
from achievements.tests.factories import AchievementFactory
from community.tests.factories import CommentFactory
from learning_platform import versioned
from progress import boards
from progress.selectors import xp_total

pytestmark = pytest.mark.usefixtures("no_seed")

ADD_URL = "/admin/achievements/achievement/add/"


@pytest.fixture
def admin_client(db) -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _form(**overrides) -> dict:
    return {
        "title": "Chatterbox",
        "slug": "chatterbox",
        "description": "Post two comments.",
        "icon": "message-circle",
        "position": "1",
        "is_active": "on",
        "rule_kind": RuleKind.COMMENTS_POSTED,
        "threshold": "2",
        "tag_slug": "",
        "quest": "",
        "xp_bonus": "0",
        **overrides,
    }


def _learner_with_comments(count: int):
    learner = UserFactory()
    CommentFactory.create_batch(count, author=learner)
    return learner


def _holders(achievement: Achievement) -> set[int]:
    return set(achievement.unlocks.values_list("user_id", flat=True))


def _enqueued_tasks(callbacks: list) -> list:
    """The on-commit callbacks that enqueue a task (cache version bumps and the leaderboards'
    updates left out)."""
    return [
        c
        for c in callbacks
        if not versioned.is_version_bump(c)
        and getattr(c, "func", None) is not boards.record_awards_of_learners
    ]


def test_adding_an_achievement_awards_it_to_learners_who_already_qualify(
    admin_client, django_capture_on_commit_callbacks
):
    talkative, quiet = _learner_with_comments(2), _learner_with_comments(1)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(ADD_URL, _form())

    assert response.status_code == 302
    assert len(_enqueued_tasks(callbacks)) == 1
    assert _holders(Achievement.objects.get(slug="chatterbox")) == {talkative.id}
    assert quiet.id not in _holders(Achievement.objects.get(slug="chatterbox"))


def test_changing_the_rule_awards_again_without_duplicates(
    admin_client, django_capture_on_commit_callbacks
):
    talkative, quiet = _learner_with_comments(2), _learner_with_comments(1)
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(ADD_URL, _form(xp_bonus="10"))
    achievement = Achievement.objects.get(slug="chatterbox")

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(
            f"/admin/achievements/achievement/{achievement.id}/change/",
            _form(threshold="1", xp_bonus="10"),
        )

    assert response.status_code == 302
    assert len(_enqueued_tasks(callbacks)) == 1
    assert _holders(achievement) == {talkative.id, quiet.id}
    assert AchievementUnlock.objects.filter(achievement=achievement).count() == 2
    assert xp_total(user_id=talkative.id) == xp_total(user_id=quiet.id) == 10


def test_a_change_outside_the_rule_does_not_start_a_walk(
    admin_client, django_capture_on_commit_callbacks
):
    achievement = AchievementFactory(
        slug="chatterbox", rule_kind=RuleKind.COMMENTS_POSTED, threshold=2
    )

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(
            f"/admin/achievements/achievement/{achievement.id}/change/",
            _form(title="Chatterbox!"),
        )

    assert response.status_code == 302
    assert _enqueued_tasks(callbacks) == []


def test_the_add_page_rejects_a_tag_rule_without_a_tag(
    admin_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(ADD_URL, _form(rule_kind=RuleKind.TAG_COMPLETED, threshold=""))

    assert response.status_code == 200
    assert "The tag rule needs a tag." in response.content.decode()
    assert not Achievement.objects.exists()
    assert callbacks == []


def test_the_award_action_walks_the_selected_achievements(
    admin_client, django_capture_on_commit_callbacks
):
    achievement = AchievementFactory(rule_kind=RuleKind.COMMENTS_POSTED, threshold=1)
    learner = _learner_with_comments(1)

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            "/admin/achievements/achievement/",
            {
                "action": "award_to_qualifying_learners",
                "_selected_action": [achievement.id],
                "post": "yes",
            },
        )

    assert response.status_code == 302
    assert _holders(achievement) == {learner.id}


def test_the_award_action_asks_first_and_awards_nothing_until_confirmed(
    admin_client, django_capture_on_commit_callbacks
):
    achievement = AchievementFactory(title="First comment", rule_kind=RuleKind.COMMENTS_POSTED)
    AchievementFactory(title="Retired", is_active=False)
    _learner_with_comments(1)

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            "/admin/achievements/achievement/",
            {
                "action": "award_to_qualifying_learners",
                "_selected_action": [a.id for a in Achievement.objects.all()],
            },
        )

    body = response.content.decode()
    assert response.status_code == 200
    assert "Award achievements: 1 of the 2 selected" in body
    assert "Inactive, not awarded: 1" in body
    assert _holders(achievement) == set()


def test_the_changelist_shows_rule_and_unlock_count(admin_client):
    AchievementFactory(title="Ten lessons", threshold=10)

    response = admin_client.get("/admin/achievements/achievement/")

    assert response.status_code == 200
    assert "Lessons completed ≥ 10" in response.content.decode()


def test_adding_an_achievement_while_the_broker_is_down_awards_it_once_the_sweep_runs(
    admin_client, django_capture_on_commit_callbacks, unreachable_broker
):
    from learning_platform.outbox import send_unsent_tasks

    talkative = _learner_with_comments(2)

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(ADD_URL, _form())
    assert response.status_code == 302
    assert _holders(Achievement.objects.get(slug="chatterbox")) == set()

    unreachable_broker.up()
    with django_capture_on_commit_callbacks(execute=True):
        send_unsent_tasks()

    assert _holders(Achievement.objects.get(slug="chatterbox")) == {talkative.id}
