"""Accounts through their real interfaces: allauth's headless API (app and browser clients)
and the profile endpoint `/api/v1/me/`."""

import re
from urllib.parse import unquote

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from accounts.tests.clients import signed_in_browser
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "S3cure-passw0rd!"
APP = "/_allauth/app/v1"
BROWSER = "/_allauth/browser/v1"


def app_login(client: Client, email: str, password: str = PASSWORD) -> str:
    response = client.post(
        f"{APP}/auth/login", {"email": email, "password": password}, content_type="application/json"
    )
    assert response.status_code == 200, response.json()
    return response.json()["meta"]["session_token"]


def key_from_mail(message, pattern: str) -> str:
    match = re.search(re.escape(pattern) + r"([^\s/]+)", message.body)
    assert match, message.body
    return unquote(match.group(1))


def test_app_client_signs_up_and_reads_its_profile_with_the_session_token(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"{APP}/auth/signup",
            {"email": "Ada@Example.com", "password": PASSWORD},
            content_type="application/json",
        )
    token = response.json()["meta"]["session_token"]

    me = client.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=token)

    assert response.status_code == 200
    assert me.status_code == 200
    assert me.json()["email"] == "ada@example.com"
    assert me.json()["time_zone"] == "UTC"


def test_signup_sends_a_verification_email_from_a_task_and_the_key_verifies(
    client, django_capture_on_commit_callbacks, settings
):
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"{APP}/auth/signup",
            {"email": "new@example.com", "password": PASSWORD},
            content_type="application/json",
        )
    assert len(mail.outbox) == 1
    assert "Learning Platform" in mail.outbox[0].subject
    key = key_from_mail(mail.outbox[0], f"{settings.FRONTEND_URL}/account/verify-email/")

    response = client.post(
        f"{APP}/auth/email/verify", {"key": key}, content_type="application/json"
    )

    # 401 here means "verified; now sign in": the verifying device holds no session yet.
    assert response.status_code in (200, 401)
    user = User.objects.get(email="new@example.com")
    assert user.emailaddress_set.get().verified


def test_password_reset_by_email_then_sign_in_with_the_new_password(
    client, django_capture_on_commit_callbacks
):
    UserFactory(email="forgot@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"{APP}/auth/password/request",
            {"email": "forgot@example.com"},
            content_type="application/json",
        )
    assert response.status_code == 200
    key = key_from_mail(mail.outbox[-1], "/account/password/reset/key/")

    reset = client.post(
        f"{APP}/auth/password/reset",
        {"key": key, "password": "An0ther-s3cret!"},
        content_type="application/json",
    )

    assert reset.status_code in (200, 401)  # 401: reset done, sign-in still required
    assert app_login(Client(), "forgot@example.com", "An0ther-s3cret!")


def test_wrong_password_is_refused(client):
    UserFactory(email="someone@example.com")

    response = client.post(
        f"{APP}/auth/login",
        {"email": "someone@example.com", "password": "wrong"},
        content_type="application/json",
    )

    assert response.status_code == 400


def test_each_device_has_its_own_session_and_can_end_another(client):
    UserFactory(email="two@example.com", password=PASSWORD)
    phone = app_login(Client(), "two@example.com")
    laptop = app_login(Client(), "two@example.com")

    sessions = client.get(f"{APP}/auth/sessions", HTTP_X_SESSION_TOKEN=laptop).json()["data"]
    assert len(sessions) == 2
    phone_session = next(s for s in sessions if not s["is_current"])

    ended = client.delete(
        f"{APP}/auth/sessions",
        {"sessions": [phone_session["id"]]},
        content_type="application/json",
        HTTP_X_SESSION_TOKEN=laptop,
    )

    assert ended.status_code == 200
    assert client.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=phone).status_code == 401
    assert client.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=laptop).status_code == 200


def test_sign_out_ends_the_token(client):
    UserFactory(email="bye@example.com", password=PASSWORD)
    token = app_login(client, "bye@example.com")

    client.delete(f"{APP}/auth/session", HTTP_X_SESSION_TOKEN=token)

    response = client.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=token)
    assert response.status_code == 401
    assert response.json()["type"] == "authentication_failed"


def test_browser_client_uses_the_session_cookie_and_csrf():
    UserFactory(email="web@example.com", password=PASSWORD)
    browser = Client(enforce_csrf_checks=True)
    browser.get(f"{BROWSER}/config")
    csrf = browser.cookies["csrftoken"].value

    login = browser.post(
        f"{BROWSER}/auth/login",
        {"email": "web@example.com", "password": PASSWORD},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert login.status_code == 200
    csrf = browser.cookies["csrftoken"].value

    me = browser.get("/api/v1/me/")
    without_csrf = browser.patch(
        "/api/v1/me/", {"display_name": "No"}, content_type="application/json"
    )
    with_csrf = browser.patch(
        "/api/v1/me/",
        {"display_name": "Web learner"},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=csrf,
    )

    assert me.json()["email"] == "web@example.com"
    assert without_csrf.status_code == 403
    assert with_csrf.status_code == 200
    assert with_csrf.json()["display_name"] == "Web learner"


def test_me_requires_sign_in(api_client):
    response = api_client.get("/api/v1/me/")

    assert response.status_code == 401
    assert response.json()["type"] == "not_authenticated"
    assert response["WWW-Authenticate"] == "X-Session-Token"


def test_patch_me_updates_profile_and_preferences(user_client, user):
    response = user_client.patch(
        "/api/v1/me/",
        {
            "display_name": "  Ada  ",
            "time_zone": "Europe/Paris",
            "reply_notifications": False,
            "show_on_leaderboard": False,
        },
        format="json",
    )

    assert response.status_code == 200
    user.refresh_from_db()
    assert user.display_name == "Ada"
    assert user.time_zone == "Europe/Paris"
    assert user.reply_notifications is False
    assert user.show_on_leaderboard is False
    assert user.email_notifications is True


def test_me_names_the_handle_others_see_while_the_display_name_is_empty(user_client, user):
    user.display_name = ""
    user.save()

    body = user_client.get("/api/v1/me/").json()

    assert body["display_name"] == ""
    assert body["public_name"] == user.public_handle


def test_patch_me_rejects_an_unknown_time_zone_with_a_field_error(user_client, user):
    response = user_client.patch("/api/v1/me/", {"time_zone": "Mars/Olympus"}, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "validation_error"
    assert "time_zone" in body["errors"]
    user.refresh_from_db()
    assert user.time_zone == "UTC"


def test_patch_me_cannot_change_the_email_or_staff_flag(user_client, user):
    user_client.patch(
        "/api/v1/me/", {"email": "x@evil.com", "is_staff": True, "display_name": "A"}, format="json"
    )

    user.refresh_from_db()
    assert user.email != "x@evil.com"
    assert user.is_staff is False


def test_allauth_names_a_user_by_display_name(client):
    UserFactory(email="named@example.com", display_name="Grace", password=PASSWORD)

    response = client.post(
        f"{APP}/auth/login",
        {"email": "named@example.com", "password": PASSWORD},
        content_type="application/json",
    )

    assert response.json()["data"]["user"]["display"] == "Grace"


def test_a_session_is_seen_at_most_once_per_interval(client, settings, monkeypatch):
    import time

    from allauth.usersessions.models import UserSession
    from django.core.cache import cache

    from learning_platform import activity

    UserFactory(email="seen@example.com", password=PASSWORD)
    token = app_login(client, "seen@example.com")
    session = UserSession.objects.get(user__email="seen@example.com")
    UserSession.objects.filter(pk=session.pk).update(last_seen_at=session.created_at)

    client.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=token)
    first_seen = UserSession.objects.get(pk=session.pk).last_seen_at
    client.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=token)
    within_window = UserSession.objects.get(pk=session.pk).last_seen_at
    # The interval passes: the shared marker expires and this process's clock moves on.
    cache.delete(f"session-seen:{session.session_key}")
    later = time.monotonic() + settings.SESSION_ACTIVITY_INTERVAL + 1
    monkeypatch.setattr(activity.time, "monotonic", lambda: later)
    client.get("/api/v1/me/", HTTP_X_SESSION_TOKEN=token)
    after_window = UserSession.objects.get(pk=session.pk).last_seen_at

    assert first_seen > session.created_at
    assert within_window == first_seen
    assert after_window > first_seen


def test_a_browser_session_is_seen_too():
    from allauth.usersessions.models import UserSession

    UserFactory(email="cookie@example.com", password=PASSWORD)
    browser = Client()
    browser.post(
        f"{BROWSER}/auth/login",
        {"email": "cookie@example.com", "password": PASSWORD},
        content_type="application/json",
    )
    session = UserSession.objects.get(user__email="cookie@example.com")
    UserSession.objects.filter(pk=session.pk).update(last_seen_at=session.created_at)
    from django.core.cache import cache

    cache.delete(f"session-seen:{session.session_key}")
    from learning_platform import activity

    activity._recorded_until.clear()

    browser.get("/api/v1/me/")

    assert UserSession.objects.get(pk=session.pk).last_seen_at > session.created_at


@pytest.mark.parametrize("zone", ["localtime", "posixrules", "Factory", "Mars/Olympus"])
def test_patch_me_refuses_host_dependent_or_unknown_zones(user_client, zone):
    response = user_client.patch("/api/v1/me/", {"time_zone": zone}, format="json")

    assert response.status_code == 400
    assert "time_zone" in response.json()["errors"]


# --- GET /api/v1/session ----------------------------------------------------------------------


def test_session_state_signed_out_is_200_not_authenticated(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/api/v1/session")

    assert response.status_code == 200
    assert response.json() == {"is_authenticated": False, "user": None}
    assert response["Cache-Control"] == "private, no-store"
    assert "Cookie" in response["Vary"]


def test_session_state_with_the_session_cookie_has_the_profile():
    UserFactory(email="web@example.com", password=PASSWORD, display_name="Web learner")
    browser = signed_in_browser(email="web@example.com", password=PASSWORD)

    body = browser.get("/api/v1/session").json()

    assert body["is_authenticated"] is True
    assert body["user"] == browser.get("/api/v1/me/").json()
    assert body["user"]["display_name"] == "Web learner"


def test_session_state_with_a_session_token_has_the_profile(client):
    UserFactory(email="app@example.com", password=PASSWORD)
    token = app_login(client, "app@example.com")

    body = client.get("/api/v1/session", HTTP_X_SESSION_TOKEN=token).json()

    assert body["is_authenticated"] is True
    assert body["user"]["email"] == "app@example.com"


def test_session_state_after_sign_out_is_not_authenticated():
    UserFactory(email="bye@example.com", password=PASSWORD)
    browser = signed_in_browser(email="bye@example.com", password=PASSWORD)
    browser.delete(f"{BROWSER}/auth/session", HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value)

    assert browser.get("/api/v1/session").json() == {"is_authenticated": False, "user": None}


def test_session_state_with_an_ended_token_is_401(client):
    UserFactory(email="gone@example.com", password=PASSWORD)
    token = app_login(client, "gone@example.com")
    client.delete(f"{APP}/auth/session", HTTP_X_SESSION_TOKEN=token)

    response = client.get("/api/v1/session", HTTP_X_SESSION_TOKEN=token)

    assert response.status_code == 401
    assert response.json()["type"] == "authentication_failed"


def test_signup_while_the_broker_is_down_answers_200_and_the_sweep_sends_the_verification(
    client, django_capture_on_commit_callbacks, unreachable_broker
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"{APP}/auth/signup",
            {"email": "late@example.com", "password": PASSWORD},
            content_type="application/json",
        )
    assert response.status_code == 200, response.content
    assert User.objects.filter(email="late@example.com").exists()
    assert mail.outbox == []

    from learning_platform.outbox import send_unsent_tasks

    unreachable_broker.up()
    with django_capture_on_commit_callbacks(execute=True):
        send_unsent_tasks()

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["late@example.com"]


@pytest.mark.parametrize(
    "name", ["Eve\r\nBcc: victim@example.com", "Eve\nX", "Tab\tName", "Bell\x07", "Sep\u2028x"]
)
def test_a_display_name_with_control_characters_is_refused_with_a_field_error(name):
    user = UserFactory(display_name="Before")
    client = Client()
    client.force_login(user)

    response = client.patch("/api/v1/me/", {"display_name": name}, content_type="application/json")

    assert response.status_code == 400
    assert "display_name" in response.json()["errors"]
    user.refresh_from_db()
    assert user.display_name == "Before"


def test_the_model_refuses_a_display_name_with_a_line_break():
    from django.core.exceptions import ValidationError

    user = UserFactory.build(display_name="Eve\r\nBcc: victim@example.com")

    with pytest.raises(ValidationError) as raised:
        user.full_clean(exclude=["password"])

    assert "display_name" in raised.value.message_dict


def test_the_schema_lists_the_time_zones_the_profile_accepts(client):
    schema = client.get("/api/schema/?format=json").json()

    zones = schema["components"]["schemas"]["TimeZoneEnum"]
    assert schema["components"]["schemas"]["PatchedProfileInputRequest"]["properties"][
        "time_zone"
    ] == {"$ref": "#/components/schemas/TimeZoneEnum"}
    assert "Europe/Paris" in zones["enum"]
    assert "localtime" not in zones["enum"]


@pytest.mark.parametrize(
    ("field", "value"),
    [("show_on_leaderboard", "false"), ("email_notifications", 0), ("display_name", 12)],
)
def test_a_profile_field_of_the_wrong_json_type_is_refused(user_client, field, value):
    response = user_client.patch("/api/v1/me/", {field: value}, format="json")

    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_me_answers_304_to_its_own_etag(user_client):
    first = user_client.get("/api/v1/me/")

    again = user_client.get("/api/v1/me/", HTTP_IF_NONE_MATCH=first["ETag"])

    assert first.status_code == 200
    assert again.status_code == 304


def test_me_answers_200_with_a_new_etag_after_a_profile_change(user_client):
    first = user_client.get("/api/v1/me/")
    user_client.patch("/api/v1/me/", {"display_name": "Ada L"}, format="json")

    after = user_client.get("/api/v1/me/", HTTP_IF_NONE_MATCH=first["ETag"])

    assert after.status_code == 200
    assert after.json()["display_name"] == "Ada L"
    assert after["ETag"] != first["ETag"]
