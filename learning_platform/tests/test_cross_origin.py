"""A separately hosted SPA: CORS for its origin, and CSRF failures in the API's error shape."""

import pytest
from django.test import Client, override_settings

from accounts.tests.clients import signed_in_browser
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BROWSER = "/_allauth/browser/v1"
PASSWORD = "correct-horse-battery"
VITE = "http://localhost:5173"
ERROR_KEYS = {"type", "title", "status", "detail", "errors"}


def signed_in_learner() -> tuple[Client, str]:
    UserFactory(email="web@example.com", password=PASSWORD)
    browser = signed_in_browser(email="web@example.com", password=PASSWORD)
    return browser, browser.cookies["csrftoken"].value


def test_allauth_without_csrf_token_answers_json_csrf_failed():
    browser = Client(enforce_csrf_checks=True)

    response = browser.post(
        f"{BROWSER}/auth/login",
        {"email": "web@example.com", "password": PASSWORD},
        content_type="application/json",
    )

    assert response.status_code == 403
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == ERROR_KEYS
    assert (body["type"], body["status"], body["title"]) == (
        "csrf_failed",
        403,
        "Permission denied.",
    )
    assert "X-CSRFToken" in body["detail"]


def test_allauth_with_a_wrong_csrf_token_answers_json_csrf_failed():
    browser = Client(enforce_csrf_checks=True)
    browser.get(f"{BROWSER}/config")

    response = browser.post(
        f"{BROWSER}/auth/login",
        {"email": "web@example.com", "password": PASSWORD},
        content_type="application/json",
        HTTP_X_CSRFTOKEN="x" * 32,
    )

    assert response.status_code == 403
    assert response.json()["type"] == "csrf_failed"


def test_api_write_with_session_cookie_but_no_csrf_token_answers_csrf_failed():
    browser, _ = signed_in_learner()

    response = browser.patch("/api/v1/me/", {"display_name": "No"}, content_type="application/json")

    assert response.status_code == 403
    body = response.json()
    assert set(body) == ERROR_KEYS
    assert body["type"] == "csrf_failed"
    assert body["detail"].startswith("CSRF Failed: CSRF token missing.")


def test_api_write_with_the_csrf_token_passes():
    browser, csrf = signed_in_learner()

    response = browser.patch(
        "/api/v1/me/",
        {"display_name": "Web learner"},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=csrf,
    )

    assert response.status_code == 200


def test_admin_csrf_failure_keeps_djangos_html_page():
    browser = Client(enforce_csrf_checks=True)

    response = browser.post("/admin/login/", {"username": "a", "password": "b"})

    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    assert b"CSRF verification failed" in response.content


@override_settings(CORS_ALLOWED_ORIGINS=[VITE])
def test_cors_preflight_allows_allauths_key_headers_with_credentials(client):
    response = client.options(
        f"{BROWSER}/auth/password/reset",
        HTTP_ORIGIN=VITE,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="content-type, x-csrftoken, x-password-reset-key",
    )

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == VITE
    assert response["Access-Control-Allow-Credentials"] == "true"
    allowed = {h.strip() for h in response["Access-Control-Allow-Headers"].split(",")}
    assert {
        "x-csrftoken",
        "x-session-token",
        "x-email-verification-key",
        "x-password-reset-key",
        "if-none-match",
    } <= allowed


@override_settings(CORS_ALLOWED_ORIGINS=[VITE])
def test_cors_exposes_location_etag_retry_after_and_request_id_to_the_spa(client):
    response = client.get("/api/v1/levels/", HTTP_ORIGIN=VITE)

    assert response["Access-Control-Allow-Origin"] == VITE
    exposed = {h.strip() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert exposed == {"ETag", "Location", "Retry-After", "X-Request-ID"}


@override_settings(CORS_ALLOWED_ORIGINS=[VITE])
def test_cors_ignores_an_origin_not_listed(client):
    response = client.get("/api/v1/levels/", HTTP_ORIGIN="http://evil.example")

    assert "Access-Control-Allow-Origin" not in response


def sign_in_from(origin: str):
    """A browser client's sign-in with a valid CSRF token, sent from `origin`."""
    UserFactory(email="web@example.com", password=PASSWORD)
    browser = Client(enforce_csrf_checks=True)
    browser.get(f"{BROWSER}/config")
    return browser.post(
        f"{BROWSER}/auth/login",
        {"email": "web@example.com", "password": PASSWORD},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
        HTTP_ORIGIN=origin,
    )


@override_settings(CSRF_TRUSTED_ORIGINS=[VITE])
def test_allauth_accepts_a_sign_in_from_a_trusted_spa_origin():
    response = sign_in_from(VITE)

    assert response.status_code == 200


def test_allauth_refuses_a_sign_in_from_an_untrusted_origin_as_json():
    response = sign_in_from("http://evil.example")

    assert response.status_code == 403
    assert response.json()["type"] == "csrf_failed"
    assert "Origin checking failed" in response.json()["detail"]
