"""A platform's launch through the tool's HTTP endpoints, against the fake platform."""

import time

import pytest
from django.contrib.auth import get_user_model
from lti_tool.models import Key

from accounts.tests.factories import UserFactory
from lessons.tests.factories import LessonFactory, QuestFactory
from lti.models import LtiAccount
from lti.tests.conftest import (
    CLIENT_ID,
    ISSUER,
    continue_to_app,
    launch,
    new_private_key,
    post_launch,
    start_login,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def lesson():
    return LessonFactory(slug="attention-heads", title="Attention heads")


def test_login_redirects_to_the_platform_with_a_state_cookie_and_a_nonce(client, registration):
    response = client.get(
        "/lti/login/",
        {
            "iss": ISSUER,
            "client_id": CLIENT_ID,
            "login_hint": "u",
            "target_link_uri": "https://tool.example/lti/launch/",
            "lti1p3_new_window": "1",
        },
    )

    assert response.status_code == 302
    assert response["Location"].startswith(registration.auth_url + "?")
    assert "nonce=" in response["Location"]
    assert "redirect_uri=http%3A%2F%2Ftestserver%2Flti%2Flaunch%2F" in response["Location"]
    assert any(name.startswith("lti1p3-state-") for name in response.cookies)


def test_login_in_a_frame_first_checks_cookies_and_offers_a_new_window(client, registration):
    response = client.get(
        "/lti/login/",
        {"iss": ISSUER, "client_id": CLIENT_ID, "login_hint": "u", "target_link_uri": "x"},
    )

    assert response.status_code == 200
    assert b"Open the course in a new window." in response.content
    assert b"lti1p3_new_window" in response.content


def test_login_from_an_unknown_platform_is_refused_with_a_page(client, registration):
    response = client.get(
        "/lti/login/",
        {
            "iss": "https://other.example",
            "client_id": "x",
            "login_hint": "u",
            "target_link_uri": "x",
        },
    )

    assert response.status_code == 400
    assert b"could not be accepted" in response.content


def test_valid_launch_signs_a_new_learner_in_and_opens_the_lesson(
    client, registration, fake_platform, lesson
):
    response = launch(client, fake_platform, custom={"lesson": lesson.slug})

    assert continue_to_app(client, response) == f"/lessons/{lesson.slug}"
    account = LtiAccount.objects.get()
    assert (account.issuer, account.subject) == (ISSUER, "platform-user-1")
    assert client.get("/api/v1/me/progress").status_code == 200
    assert account.user.email.endswith("@lti.invalid")
    assert account.user.has_usable_password() is False


def test_launch_in_a_window_goes_straight_to_the_quest(client, registration, fake_platform):
    quest = QuestFactory(slug="transformers")
    response = launch(
        client,
        fake_platform,
        custom={"quest": quest.slug},
        **{
            "https://purl.imsglobal.org/spec/lti/claim/launch_presentation": {
                "document_target": "window"
            }
        },
    )

    assert response.status_code == 302
    assert client.get(response["Location"])["Location"] == "/quests/transformers"


def test_second_launch_of_the_same_subject_signs_in_the_same_account(
    client, registration, fake_platform, lesson
):
    continue_to_app(client, launch(client, fake_platform, custom={"lesson": lesson.slug}))
    continue_to_app(client, launch(client, fake_platform, custom={"lesson": lesson.slug}))

    assert LtiAccount.objects.count() == 1


def test_a_platform_email_never_merges_into_an_existing_account(
    client, registration, fake_platform, lesson
):
    existing = UserFactory(email="ada@school.example")

    continue_to_app(client, launch(client, fake_platform, custom={"lesson": lesson.slug}))

    assert LtiAccount.objects.get().user != existing
    assert get_user_model().objects.filter(email="ada@school.example").count() == 1


def test_a_continue_link_works_once(client, registration, fake_platform, lesson):
    response = launch(client, fake_platform, custom={"lesson": lesson.slug})
    html = response.content.decode()
    start = html.index('href="/lti/continue/') + len('href="')
    url = html[start : html.index('"', start)]

    assert client.get(url).status_code == 302
    assert client.get(url).status_code == 400


def test_launch_of_unknown_content_is_a_404_page(client, registration, fake_platform):
    response = launch(client, fake_platform, custom={"lesson": "no-such-lesson"})

    assert response.status_code == 404
    assert b"names no lesson or quest" in response.content


def _assert_refused(response, status, code):
    assert response.status_code == status, response.content
    assert b"could not be accepted" in response.content
    assert code.encode() in response.content


def test_bad_signature_is_refused(client, registration, fake_platform, lesson):
    state, nonce = start_login(client)
    token = fake_platform.id_token(
        nonce=nonce, key=new_private_key(), custom={"lesson": lesson.slug}
    )

    _assert_refused(post_launch(client, state, token), 403, "bad_signature")


def test_unknown_key_id_is_refused(client, registration, fake_platform, lesson):
    state, nonce = start_login(client)
    token = fake_platform.id_token(nonce=nonce, kid="another-key", custom={"lesson": lesson.slug})

    _assert_refused(post_launch(client, state, token), 403, "unknown_key")


def test_wrong_audience_is_refused(client, registration, fake_platform, lesson):
    state, nonce = start_login(client)
    token = fake_platform.id_token(nonce=nonce, aud="another-tool", custom={"lesson": lesson.slug})

    _assert_refused(post_launch(client, state, token), 403, "unknown_platform")


def test_several_audiences_without_this_tool_as_azp_are_refused(
    client, registration, fake_platform, lesson
):
    state, nonce = start_login(client)
    token = fake_platform.id_token(
        nonce=nonce,
        aud=[CLIENT_ID, "another-tool"],
        azp="another-tool",
        custom={"lesson": lesson.slug},
    )

    _assert_refused(post_launch(client, state, token), 403, "bad_audience")


def test_wrong_issuer_is_refused(client, registration, fake_platform, lesson):
    state, nonce = start_login(client)
    token = fake_platform.id_token(
        nonce=nonce, iss="https://evil.example", custom={"lesson": lesson.slug}
    )

    _assert_refused(post_launch(client, state, token), 403, "unknown_platform")


def test_expired_token_is_refused(client, registration, fake_platform, lesson):
    state, nonce = start_login(client)
    past = int(time.time()) - 3600
    token = fake_platform.id_token(
        nonce=nonce, iat=past - 60, exp=past, custom={"lesson": lesson.slug}
    )

    _assert_refused(post_launch(client, state, token), 403, "expired")


def test_replayed_nonce_is_refused(client, registration, fake_platform, lesson):
    state, nonce = start_login(client)
    token = fake_platform.id_token(nonce=nonce, custom={"lesson": lesson.slug})
    assert post_launch(client, state, token).status_code == 200

    _assert_refused(post_launch(client, state, token), 403, "replayed_nonce")


def test_nonce_not_issued_by_the_tool_is_refused(client, registration, fake_platform, lesson):
    state, _ = start_login(client)
    token = fake_platform.id_token(nonce="made-up", custom={"lesson": lesson.slug})

    _assert_refused(post_launch(client, state, token), 403, "bad_nonce")


def test_unknown_deployment_is_refused_and_not_created(client, registration, fake_platform, lesson):
    state, nonce = start_login(client)
    token = fake_platform.id_token(
        nonce=nonce,
        custom={"lesson": lesson.slug},
        **{"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "deployment-9"},
    )

    _assert_refused(post_launch(client, state, token), 403, "unknown_deployment")
    assert registration.deployments.count() == 1


def test_inactive_deployment_is_refused(client, registration, fake_platform, lesson):
    registration.deployments.update(is_active=False)

    _assert_refused(
        launch(client, fake_platform, custom={"lesson": lesson.slug}), 403, "unknown_deployment"
    )


def test_missing_message_type_is_refused(client, registration, fake_platform, lesson):
    state, nonce = start_login(client)
    token = fake_platform.id_token(
        nonce=nonce,
        custom={"lesson": lesson.slug},
        **{"https://purl.imsglobal.org/spec/lti/claim/message_type": None},
    )

    _assert_refused(post_launch(client, state, token), 400, "bad_message")


def test_state_mismatch_is_refused(client, registration, fake_platform, lesson):
    _, nonce = start_login(client)
    token = fake_platform.id_token(nonce=nonce, custom={"lesson": lesson.slug})

    _assert_refused(post_launch(client, "state-not-ours", token), 403, "state_mismatch")


def test_state_cookie_blocked_by_the_browser_is_refused(
    client, registration, fake_platform, lesson
):
    state, nonce = start_login(client)
    client.cookies.clear()
    token = fake_platform.id_token(nonce=nonce, custom={"lesson": lesson.slug})

    _assert_refused(post_launch(client, state, token), 403, "state_mismatch")


def test_garbage_id_token_is_refused(client, registration):
    state, _ = start_login(client)

    _assert_refused(post_launch(client, state, "not-a-jwt"), 400, "bad_token")


def test_login_without_a_tool_key_is_refused(client, registration):
    Key.objects.all().delete()
    response = client.get(
        "/lti/login/",
        {
            "iss": ISSUER,
            "client_id": CLIENT_ID,
            "login_hint": "u",
            "target_link_uri": "x",
            "lti1p3_new_window": "1",
        },
    )

    _assert_refused(response, 403, "no_tool_key")


def test_launch_after_the_keys_were_removed_is_refused(client, registration, fake_platform, lesson):
    state, nonce = start_login(client)
    Key.objects.all().delete()
    token = fake_platform.id_token(nonce=nonce, custom={"lesson": lesson.slug})

    _assert_refused(post_launch(client, state, token), 403, "no_tool_key")
