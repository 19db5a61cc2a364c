"""Deep linking: a teacher picks a quest or a lesson, and the platform gets it signed."""

import html
import json
import re

import jwt
import pytest
from django.core.management import call_command
from jwt.algorithms import RSAAlgorithm

from lessons.tests.factories import LessonFactory, QuestFactory
from lti.tests.conftest import CLIENT_ID, DEPLOYMENT_ID, ISSUER, launch, post_form

pytestmark = pytest.mark.django_db

DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"


@pytest.fixture
def content():
    quest = QuestFactory(slug="transformers", title="Transformers")
    LessonFactory(quest=quest, slug="head-size", title="Head size")
    LessonFactory(quest=quest, slug="draft-lesson", title="Draft", published=False)
    return quest


def _field(page: str, name: str) -> str:
    return html.unescape(re.search(rf'name="{name}" value="([^"]*)"', page).group(1))


def _decode_with_tool_jwks(client, token: str) -> dict:
    kid = jwt.get_unverified_header(token)["kid"]
    [jwk] = [key for key in client.get("/lti/jwks.json").json()["keys"] if key["kid"] == kid]
    public = RSAAlgorithm.from_jwk(json.dumps(jwk))
    return jwt.decode(token, public, algorithms=["RS256"], audience=ISSUER)


def test_deep_linking_launch_lists_quests_and_published_lessons(
    client, registration, fake_platform, content
):
    response = launch(client, fake_platform, message_type="LtiDeepLinkingRequest")

    assert response.status_code == 200
    page = response.content.decode()
    assert 'value="quest:transformers"' in page
    assert 'value="lesson:head-size"' in page
    assert "draft-lesson" not in page


def test_picking_a_lesson_returns_a_signed_graded_resource_link(
    client, registration, fake_platform, content
):
    page = launch(client, fake_platform, message_type="LtiDeepLinkingRequest").content.decode()

    response = post_form(
        client,
        "/lti/deep-link/",
        {"launch_id": _field(page, "launch_id"), "choice": "lesson:head-size"},
    )

    assert response.status_code == 200
    returned = response.content.decode()
    assert f'action="{fake_platform.base_url}/deep-link-return"' in returned
    claims = _decode_with_tool_jwks(client, _field(returned, "JWT"))
    assert claims["iss"] == CLIENT_ID
    assert (
        claims["https://purl.imsglobal.org/spec/lti/claim/message_type"] == "LtiDeepLinkingResponse"
    )
    assert claims["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] == DEPLOYMENT_ID
    assert claims[DL + "data"] == "opaque-platform-data"
    [item] = claims[DL + "content_items"]
    assert item["type"] == "ltiResourceLink"
    assert item["title"] == "Head size"
    assert item["url"] == "http://testserver/lti/launch/"
    assert item["custom"] == {"lesson": "head-size"}
    assert item["lineItem"]["scoreMaximum"] == 1.0


def test_picking_a_quest_returns_an_ungraded_link(client, registration, fake_platform, content):
    page = launch(client, fake_platform, message_type="LtiDeepLinkingRequest").content.decode()

    response = post_form(
        client,
        "/lti/deep-link/",
        {"launch_id": _field(page, "launch_id"), "choice": "quest:transformers"},
    )

    [item] = _decode_with_tool_jwks(client, _field(response.content.decode(), "JWT"))[
        DL + "content_items"
    ]
    assert item["custom"] == {"quest": "transformers"}
    assert "lineItem" not in item


def test_an_unknown_launch_id_cannot_pick_content(client, registration, fake_platform, content):
    page = launch(
        client,
        fake_platform,
        custom={"quest": "transformers"},
        **{
            "https://purl.imsglobal.org/spec/lti/claim/launch_presentation": {
                "document_target": "iframe"
            }
        },
    )
    assert page.status_code == 200

    response = post_form(
        client,
        "/lti/deep-link/",
        {"launch_id": "lti1p3-launch-made-up", "choice": "quest:transformers"},
    )

    assert response.status_code == 400


def test_picking_something_not_offered_is_refused(client, registration, fake_platform, content):
    page = launch(client, fake_platform, message_type="LtiDeepLinkingRequest").content.decode()

    response = post_form(
        client,
        "/lti/deep-link/",
        {"launch_id": _field(page, "launch_id"), "choice": "lesson:draft-lesson"},
    )

    assert response.status_code == 400
    assert b"Pick a quest or a lesson" in response.content


def test_jwks_serves_the_active_keys_and_rotation_adds_one(client, registration):
    before = client.get("/lti/jwks.json").json()["keys"]

    call_command("rotate_keys", "--deactivate-after", "0")

    after = client.get("/lti/jwks.json").json()["keys"]
    assert len(before) == 1
    assert before[0]["alg"] == "RS256"
    assert before[0]["use"] == "sig"
    assert "d" not in before[0]
    assert len(after) == 1
    assert after[0]["kid"] != before[0]["kid"]


def test_rotation_keeps_the_old_key_published_while_platforms_cache_it(client, registration):
    call_command("rotate_keys")

    assert len(client.get("/lti/jwks.json").json()["keys"]) == 2
