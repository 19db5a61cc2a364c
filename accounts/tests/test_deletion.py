"""Deleting an account: asked for through the API, a grace period in which signing in keeps
it, then the purge job (accounts.purge_deleted_accounts)."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts import services, tasks
from accounts.models import User
from accounts.tests.clients import BROWSER, signed_in_browser
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "S3cure-passw0rd!"
APP = "/_allauth/app/v1"


def app_login(email: str) -> str:
    response = Client().post(
        f"{APP}/auth/login", {"email": email, "password": PASSWORD}, content_type="application/json"
    )
    assert response.status_code == 200, response.json()
    return response.json()["meta"]["session_token"]


def ask_deletion(browser: Client, password: str = PASSWORD):
    return browser.post(
        "/api/v1/me/deletion",
        {"password": password},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
    )


def test_the_terms_of_deletion_are_told_before_asking(settings):
    settings.ACCOUNT_DELETION_GRACE_DAYS = 10
    UserFactory(email="ada@example.com", password=PASSWORD)
    browser = signed_in_browser(email="ada@example.com", password=PASSWORD)

    response = browser.get("/api/v1/me/deletion")

    assert response.json() == {"grace_days": 10}
    assert "no-store" in response["Cache-Control"]
    assert Client().get("/api/v1/me/deletion").status_code in (401, 403)


def test_deletion_with_a_wrong_password_is_refused_and_nothing_is_scheduled():
    UserFactory(email="ada@example.com", password=PASSWORD)
    browser = signed_in_browser(email="ada@example.com", password=PASSWORD)

    response = ask_deletion(browser, password="not-it")

    assert response.status_code == 400
    assert response.json()["errors"] == {"password": ["The password is not right."]}
    assert User.objects.get().deletion_requested_at is None
    assert browser.get("/api/v1/me/").status_code == 200


def test_deletion_is_scheduled_after_the_grace_period_and_every_session_ends(
    django_capture_on_commit_callbacks,
):
    UserFactory(email="ada@example.com", password=PASSWORD)
    browser = signed_in_browser(email="ada@example.com", password=PASSWORD)
    phone = app_login("ada@example.com")

    with django_capture_on_commit_callbacks(execute=True):
        response = ask_deletion(browser)

    assert response.status_code == 202
    requested = User.objects.get().deletion_requested_at
    assert requested is not None
    body = response.json()
    assert body["delete_after"] == (requested + timedelta(days=7)).isoformat().replace(
        "+00:00", "Z"
    )
    assert browser.get("/api/v1/me/").status_code in (401, 403)
    assert Client().get("/api/v1/me/", HTTP_X_SESSION_TOKEN=phone).status_code == 401
    assert [m.to for m in mail.outbox] == [["ada@example.com"]]
    assert "Sign in before then" in mail.outbox[0].body


def test_signing_in_during_the_grace_period_cancels_the_deletion(
    django_capture_on_commit_callbacks,
):
    UserFactory(email="ada@example.com", password=PASSWORD)
    ask_deletion(signed_in_browser(email="ada@example.com", password=PASSWORD))
    mail.outbox.clear()

    with time_machine.travel(timezone.now() + timedelta(days=6)):
        with django_capture_on_commit_callbacks(execute=True):
            browser = signed_in_browser(email="ada@example.com", password=PASSWORD)
        me = browser.get("/api/v1/me/")

    assert me.json()["deletion_requested_at"] is None
    assert User.objects.get().deletion_requested_at is None
    assert [m.subject for m in mail.outbox] == [
        "[Learning Platform] Your account will not be deleted"
    ]


def test_the_purge_job_leaves_an_account_alone_within_its_grace_period():
    UserFactory(email="ada@example.com", password=PASSWORD)
    ask_deletion(signed_in_browser(email="ada@example.com", password=PASSWORD))

    with time_machine.travel(timezone.now() + timedelta(days=6, hours=23)):
        purged = tasks.purge_deleted_accounts()

    assert purged == 0
    assert User.objects.get().email == "ada@example.com"


def test_the_purge_job_deletes_an_account_once_the_grace_period_is_over():
    UserFactory(
        email="ada@example.com",
        password=PASSWORD,
        display_name="Ada L",
        name_invited_at=timezone.now(),
    )
    ask_deletion(signed_in_browser(email="ada@example.com", password=PASSWORD))

    with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
        purged = tasks.purge_deleted_accounts()

    assert purged == 1
    user = User.objects.get()
    assert user.public_name == "A deleted learner"
    assert user.email == f"deleted-{user.pk}@deleted.invalid"
    assert not user.is_active
    assert not user.has_usable_password()
    assert user.deleted_at is not None
    assert user.name_invited_at is None
    assert not user.emailaddress_set.exists()


def test_the_purge_job_run_twice_purges_once():
    UserFactory(email="ada@example.com", password=PASSWORD)
    ask_deletion(signed_in_browser(email="ada@example.com", password=PASSWORD))

    with time_machine.travel(timezone.now() + timedelta(days=8)):
        first = tasks.purge_deleted_accounts()
        deleted_at = User.objects.get().deleted_at
        second = tasks.purge_deleted_accounts()
        again = services.purge_account(user_id=User.objects.get().pk)

    assert (first, second, again) == (1, 0, False)
    assert User.objects.get().deleted_at == deleted_at


def test_a_purged_account_cannot_sign_in():
    UserFactory(email="ada@example.com", password=PASSWORD)
    ask_deletion(signed_in_browser(email="ada@example.com", password=PASSWORD))
    with time_machine.travel(timezone.now() + timedelta(days=8)):
        tasks.purge_deleted_accounts()

    response = Client().post(
        f"{BROWSER}/auth/login",
        {"email": "ada@example.com", "password": PASSWORD},
        content_type="application/json",
    )

    assert response.status_code == 400


def test_deletion_requires_sign_in(api_client):
    response = api_client.post("/api/v1/me/deletion", {"password": PASSWORD}, format="json")

    assert response.status_code == 401


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_the_purge_job_runs_on_a_real_worker(live_worker):
    user = UserFactory(email="ada@example.com", password=PASSWORD)
    User.objects.filter(pk=user.pk).update(
        deletion_requested_at=timezone.now() - timedelta(days=7, minutes=1)
    )

    tasks.purge_deleted_accounts.delay()

    live_worker.wait_for(lambda: User.objects.get(pk=user.pk).deleted_at is not None, 30)
    assert User.objects.get(pk=user.pk).public_name == "A deleted learner"
