"""Platforms and deployments registered through the admin, and a launch from them."""

import pytest
from lti_tool.models import LtiDeployment, LtiRegistration

from lessons.tests.factories import LessonFactory
from lti.tests.conftest import (
    CLIENT_ID,
    DEPLOYMENT_ID,
    ISSUER,
    continue_to_app,
    launch,
    tool_key_pem,
)

pytestmark = pytest.mark.django_db


def test_an_admin_registers_a_platform_and_its_deployment_and_it_launches(
    admin_client, client, fake_platform
):
    from lti_tool.models import Key

    public, private = tool_key_pem()
    Key.objects.create(public_key=public, private_key=private)
    url = "/admin/lti_tool/ltiregistration/add/"
    assert admin_client.get(url).status_code == 200

    response = admin_client.post(
        url,
        {
            "name": "Moodle of the school",
            "uuid": "0b5f6c1e-4a51-4f1e-9a5e-6e2b1f6d7c11",
            "issuer": ISSUER,
            "client_id": CLIENT_ID,
            "audience": "",
            "auth_url": f"{fake_platform.base_url}/auth",
            "token_url": f"{fake_platform.base_url}/token",
            "keyset_url": f"{fake_platform.base_url}/jwks",
            "is_active": "on",
            "public_key": "",
            "private_key": "",
            "deployments-TOTAL_FORMS": "1",
            "deployments-INITIAL_FORMS": "0",
            "deployments-MIN_NUM_FORMS": "0",
            "deployments-MAX_NUM_FORMS": "1000",
            "deployments-0-deployment_id": DEPLOYMENT_ID,
            "deployments-0-is_active": "on",
            "deployments-0-pns_url": "",
        },
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    assert LtiRegistration.objects.get().issuer == ISSUER
    assert LtiDeployment.objects.get().is_active is True
    lesson = LessonFactory(slug="head-size")
    assert (
        continue_to_app(client, launch(client, fake_platform, custom={"lesson": lesson.slug}))
        == "/lessons/head-size"
    )


@pytest.mark.parametrize(
    "path",
    [
        "/admin/lti/ltiaccount/",
        "/admin/lti/gradelink/",
        "/admin/lti/scorepost/",
        "/admin/xapi/statement/",
    ],
)
def test_the_tools_records_are_listed_in_the_admin(admin_client, path):
    assert admin_client.get(path).status_code == 200
