"""A learner's data: the copy they download (GDPR article 20) and what is left of it once
their account is deleted (article 17), across every app, through the API."""

from datetime import timedelta

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.apps import apps
from django.db import models
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tasks
from accounts.models import User
from accounts.tests.clients import signed_in_browser
from accounts.tests.factories import UserFactory
from community.models import Comment
from exercises.tests.factories import SubmissionFactory
from lessons.tests.factories import CheckBlockFactory, LessonFactory
from progress.models import LessonCompletion, XPAward

pytestmark = pytest.mark.django_db

PASSWORD = "S3cure-passw0rd!"
EMAIL = "zephyrine@example.com"
NAME = "Zephyrine Quill"


def as_client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def learner_with_a_history(catalogue_free_exercise, django_capture_on_commit_callbacks):
    """A learner who answered a check, commented, was replied to, replied to someone,
    reported a typo and submitted a table; and another learner with XP of their own."""
    learner = UserFactory(email=EMAIL, display_name=NAME, password=PASSWORD)
    EmailAddress.objects.create(user=learner, email=EMAIL, verified=True, primary=True)
    other = UserFactory(display_name="Other Learner")
    lesson = LessonFactory(slug="embedding-dimension", xp=10)
    check = CheckBlockFactory(lesson=lesson, position=1)
    me, them = as_client(learner), as_client(other)
    comments = reverse("lesson-comments", args=[lesson.slug])
    with django_capture_on_commit_callbacks(execute=True):
        _act(me, them, check, comments, lesson)
    SubmissionFactory(user=learner, exercise=catalogue_free_exercise, notes=f"by {NAME}")
    return learner


def _act(me: APIClient, them: APIClient, check, comments: str, lesson) -> None:
    assert me.post(
        reverse("check-answers", args=[check.pk]),
        {"answer": {"value": str(check.spec["answer"])}},
        format="json",
    ).json()["correct"]
    mine = me.post(comments, {"body": "Why 64 and not 768?"}, format="json").json()
    theirs = them.post(comments, {"body": "A question of my own."}, format="json").json()
    them.post(comments, {"body": "Because of the heads.", "parent": mine["id"]}, format="json")
    me.post(comments, {"body": "Thanks!", "parent": theirs["id"]}, format="json")
    me.post(
        reverse("lesson-reports", args=[lesson.slug]),
        {"kind": "typo", "message": "A typo in the second paragraph."},
        format="json",
    )
    them.post(
        reverse("check-answers", args=[check.pk]),
        {"answer": {"value": str(check.spec["answer"])}},
        format="json",
    )


@pytest.fixture
def catalogue_free_exercise():
    from exercises.tests.factories import ExerciseFactory

    return ExerciseFactory()


def test_the_download_holds_every_section_of_the_learners_data(learner_with_a_history):
    browser = signed_in_browser(email=EMAIL, password=PASSWORD)

    response = browser.get("/api/v1/me/data")

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert "no-store" in response["Cache-Control"]
    data = response.json()
    assert data["profile"]["email"] == EMAIL
    assert data["profile"]["display_name"] == NAME
    assert data["email_addresses"] == [{"email": EMAIL, "verified": True, "primary": True}]
    assert data["progress"]["xp_total"] == sum(row["xp"] for row in data["xp_ledger"]) > 0
    assert [row["lesson"] for row in data["progress"]["completed_lessons"]] == [
        "embedding-dimension"
    ]
    assert [row["notes"] for row in data["submissions"]] == [f"by {NAME}"]
    assert [row["correct"] for row in data["check_answers"]] == [True]
    assert len(data["checks"]) == 1
    assert len(data["review_cards"]) == 1
    assert [c["body"] for c in data["comments"]] == ["Why 64 and not 768?", "Thanks!"]
    assert [r["message"] for r in data["reports"]] == ["A typo in the second paragraph."]
    assert data["notifications"], "the reply to the learner's comment"


def test_the_download_holds_only_the_learners_own_data(learner_with_a_history):
    other = User.objects.get(display_name="Other Learner")

    data = as_client(other).get("/api/v1/me/data").json()

    assert data["profile"]["display_name"] == "Other Learner"
    assert [c["body"] for c in data["comments"]] == [
        "A question of my own.",
        "Because of the heads.",
    ]
    assert data["reports"] == []
    assert data["submissions"] == []


def test_the_download_requires_sign_in(api_client):
    assert api_client.get("/api/v1/me/data").status_code == 401


def _purge(learner: User) -> None:
    browser = signed_in_browser(email=EMAIL, password=PASSWORD)
    response = browser.post(
        "/api/v1/me/deletion",
        {"password": PASSWORD},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
    )
    assert response.status_code == 202
    with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
        assert tasks.purge_deleted_accounts() == 1


def test_after_the_purge_the_totals_stay_and_the_comments_are_a_deleted_learners(
    learner_with_a_history,
):
    ledger_total = XPAward.objects.aggregate(total=Sum("amount"))["total"]
    completions = LessonCompletion.objects.count()
    comments = Comment.objects.count()

    _purge(learner_with_a_history)

    assert XPAward.objects.aggregate(total=Sum("amount"))["total"] == ledger_total
    assert LessonCompletion.objects.count() == completions
    assert Comment.objects.count() == comments
    listed = APIClient().get(reverse("lesson-comments", args=["embedding-dimension"])).json()
    authors = {c["author"]["name"] for c in listed["results"] if c["author"]}
    assert authors == {"A deleted learner", "Other Learner"}


TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField)


def test_after_the_purge_no_table_holds_anything_personal(learner_with_a_history):
    handle = learner_with_a_history.public_handle
    personal = (EMAIL, NAME, handle, "Zephyrine")

    _purge(learner_with_a_history)

    looked_at, found = [], []
    for model in apps.get_models(include_auto_created=True):
        if model._meta.proxy or not model._meta.managed:
            continue
        fields = [f for f in model._meta.concrete_fields if isinstance(f, TEXT_FIELDS)]
        looked_at.append(model._meta.db_table)
        for field in fields:
            for text in personal:
                rows = model._default_manager.filter(**{f"{field.name}__icontains": text})
                if rows.exists():
                    found.append((model._meta.db_table, field.name, text))
    assert found == []
    # The tables where the learner's history was (and whose rows stay, nameless).
    assert {
        "accounts_user",
        "account_emailaddress",
        "community_comment",
        "community_issuereport",
        "exercises_submission",
        "exercises_checkanswer",
        "community_notification",  # notifications' tables kept their first names
        "community_emaildelivery",
        "progress_xpaward",
        "reviews_reviewcard",
        "usersessions_usersession",
        "django_session",
    } <= set(looked_at)
    print("tables looked at:", ", ".join(sorted(looked_at)))
