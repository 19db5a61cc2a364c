"""Personal answers are never storable by a shared cache (issue 41, item 4): every answer of the
API and of the sign-in API is private (and varies by the credentials) unless it says it is the
same for everyone, so a CDN in front (docs/operations.md) cannot hand one learner's data to
another."""

import pytest
from django.test import Client

from accounts.tests.factories import UserFactory
from accounts.tests.test_api import APP, PASSWORD, app_login
from exercises.tests.factories import SubmissionFactory

pytestmark = pytest.mark.django_db

PERSONAL = [
    "/api/v1/me/",
    "/api/v1/me/progress",
    "/api/v1/me/calendar",
    "/api/v1/me/notifications/",
    "/api/v1/me/reports/",
    "/api/v1/me/lessons/started",
    "/api/v1/leaderboard",
    "/api/v1/session",
    "/api/v1/submissions/{submission}/",
    f"{APP}/auth/session",
    f"{APP}/account/email",
]


def _directives(header: str) -> set[str]:
    return {part.strip().split("=")[0].lower() for part in header.split(",") if part.strip()}


def _varies(response) -> set[str]:
    return {part.strip().lower() for part in response.get("Vary", "").split(",")}


@pytest.mark.parametrize("path", PERSONAL)
def test_a_personal_answer_is_private_and_varies_by_the_credentials(path):
    learner = UserFactory(password=PASSWORD)
    token = app_login(Client(), learner.email)
    submission = SubmissionFactory(user=learner)

    response = Client().get(path.format(submission=submission.pk), HTTP_X_SESSION_TOKEN=token)

    assert response.status_code == 200, response.content
    directives = _directives(response.get("Cache-Control", ""))
    assert "private" in directives or "no-store" in directives, response.get("Cache-Control")
    assert "public" not in directives
    assert {"cookie", "x-session-token", "authorization"} <= _varies(response)


def test_an_error_answer_to_a_signed_in_learner_is_private_too():
    learner = UserFactory(password=PASSWORD)
    token = app_login(Client(), learner.email)

    response = Client().get("/api/v1/submissions/999999/", HTTP_X_SESSION_TOKEN=token)

    assert response.status_code == 404
    assert "private" in _directives(response["Cache-Control"])


def test_what_is_the_same_for_everyone_stays_public():
    response = Client().get("/api/v1/levels/")

    assert "public" in _directives(response["Cache-Control"])
    assert "x-session-token" not in _varies(response)
