"""Clients signed in through allauth's headless API, as the apps sign in."""

from django.test import Client

BROWSER = "/_allauth/browser/v1"


def signed_in_browser(*, email: str, password: str, **headers: str) -> Client:
    """A browser client (session cookie, CSRF enforced) signed in with its csrftoken cookie;
    `headers` (HTTP_USER_AGENT=...) go with each of its requests."""
    browser = Client(enforce_csrf_checks=True, **headers)
    browser.get(f"{BROWSER}/config")
    response = browser.post(
        f"{BROWSER}/auth/login",
        {"email": email, "password": password},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
    )
    assert response.status_code == 200, response.json()
    return browser
