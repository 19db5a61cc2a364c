"""Under /admin/ errors are admin pages (HTML); the API keeps its JSON error shape."""

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_admin_403_is_an_admin_page(client):
    client.force_login(UserFactory(is_staff=True))

    response = client.get(reverse("admin:lessons_lesson_add"))

    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert "Permission denied" in body
    assert f"{settings.SITE_NAME} admin" in body
    assert "permission_denied" not in body


def test_admin_404_is_an_admin_page(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    response = client.get(reverse("admin:lessons_lesson_preview", args=[999_999]))

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert "Page not found" in response.content.decode()


def test_unknown_admin_path_for_staff_is_an_admin_404(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    response = client.get("/admin/no-such-page/")

    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_api_errors_keep_their_json_shape(client):
    client.force_login(UserFactory(is_staff=True))

    response = client.get("/api/v1/no-such-endpoint/")

    assert response.status_code == 404
    assert response.json()["type"] == "not_found"


def test_the_admin_names_the_platform(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    body = client.get(reverse("admin:index")).content.decode()

    assert f"<title>Content, learners and reports | {settings.SITE_NAME} admin</title>" in body
    assert f">{settings.SITE_NAME} admin</a>" in body
