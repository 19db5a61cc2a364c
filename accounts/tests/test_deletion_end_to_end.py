"""Deleting an account, end to end (issue 40): a learner with data in every app asks for
deletion through the API, a second one who asked too signs in within the grace period and
keeps their account, then the purge task runs. The boards' and analytics' totals stay what
they were, the learner's comments stay as "A deleted learner"'s, and no column of any table of
the project holds anything that named them."""

from datetime import timedelta

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.apps import apps
from django.db import models
from django.db.models import Sum
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from lti_tool.models import Key, LtiRegistration
from rest_framework.test import APIClient

from accounts import tasks
from accounts.models import User
from accounts.tests.clients import signed_in_browser
from accounts.tests.factories import UserFactory
from exercises.tests.conftest import GOOD_CSV, post_table
from exercises.tests.factories import ExerciseFactory
from insights import selectors as insights
from lessons.tests.factories import CheckBlockFactory, LessonFactory, QuestFactory
from lti.models import GradeLink, LtiAccount
from progress.models import XPAward
from xapi.models import Statement
from xapi.tests.conftest import fake_lrs  # noqa: F401 (a fixture: the LRS the rows go to)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fake_lrs", "catalogue")]

PASSWORD = "S3cure-passw0rd!"
EMAIL = "zephyrine.quill@example.com"
SECOND_EMAIL = "zq.elsewhere@example.net"
NAME = "Zephyrine Quill"
TIME_ZONE = "Pacific/Chatham"
BROWSER_AGENT = "ZephyrineBrowser/7.3"
LTI_SUBJECT = "lms-user-zephyrine-5521"
# What named the learner, given at the start; the handle ("Learner 380293") is added to it.
PERSONAL = (EMAIL, SECOND_EMAIL, NAME, "Zephyrine", TIME_ZONE, BROWSER_AGENT, LTI_SUBJECT)

# Who changes their mind: asks for deletion, then signs in within the grace period.
KEEPER_EMAIL = "bartholomew.finch@example.com"
KEEPER_NAME = "Bartholomew Finch"

TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField)


def as_client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def browser_signed_in(email: str) -> Client:
    """A browser signed in through allauth's headless API; the learner's own is told by its
    user agent."""
    agent = BROWSER_AGENT if email == EMAIL else "Mozilla/5.0"
    return signed_in_browser(email=email, password=PASSWORD, HTTP_USER_AGENT=agent)


def ask_deletion(email: str) -> None:
    browser = browser_signed_in(email)
    response = browser.post(
        "/api/v1/me/deletion",
        {"password": PASSWORD},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value,
    )
    assert response.status_code == 202, response.json()
    assert browser.get("/api/v1/me/").status_code in (401, 403)


@pytest.fixture
def catalogue(db):
    from exercises.services.catalogue import load_reference_catalogue
    from exercises.services.grading_cache import forget_catalogue

    forget_catalogue()
    load_reference_catalogue()
    yield
    forget_catalogue()


@pytest.fixture
def world(django_capture_on_commit_callbacks):
    """A quest whose lesson has a check and an exercise; the learner answered, submitted,
    commented and was replied to, replied to another, reported a typo, launched from an LMS;
    another learner did the same things; the keeper has XP of their own."""
    quest = QuestFactory(title="Transformers")
    lesson = LessonFactory(quest=quest, position=1, slug="embedding-dimension", xp=10)
    check = CheckBlockFactory(lesson=lesson, position=1)
    exercise = ExerciseFactory(lesson=lesson)
    learner = UserFactory(email=EMAIL, display_name=NAME, password=PASSWORD, time_zone=TIME_ZONE)
    EmailAddress.objects.create(user=learner, email=EMAIL, verified=True, primary=True)
    EmailAddress.objects.create(user=learner, email=SECOND_EMAIL, verified=True, primary=False)
    other = UserFactory(display_name="Other Learner")
    keeper = UserFactory(email=KEEPER_EMAIL, display_name=KEEPER_NAME, password=PASSWORD)
    EmailAddress.objects.create(user=keeper, email=KEEPER_EMAIL, verified=True, primary=True)
    me, them, kept = as_client(learner), as_client(other), as_client(keeper)
    answers = reverse("check-answers", args=[check.pk])
    right = {"answer": {"value": str(check.spec["answer"])}}
    comments = reverse("lesson-comments", args=[lesson.slug])
    with django_capture_on_commit_callbacks(execute=True):
        for client in (me, them, kept):
            assert client.post(answers, right, format="json").json()["correct"]
        assert post_table(me, exercise, notes=f"Tabulated by {NAME}").status_code == 202
        assert post_table(them, exercise, content=GOOD_CSV).status_code == 202
        mine = me.post(comments, {"body": "Why 64 and not 768?"}, format="json").json()
        theirs = them.post(comments, {"body": "A question of my own."}, format="json").json()
        them.post(comments, {"body": "Because of the heads.", "parent": mine["id"]}, format="json")
        me.post(comments, {"body": "Thanks!", "parent": theirs["id"]}, format="json")
        report = me.post(
            reverse("lesson-reports", args=[lesson.slug]),
            {"kind": "typo", "message": "A typo in the second paragraph."},
            format="json",
        )
        assert report.status_code == 201, report.json()
    _launched_from_an_lms(learner, lesson)
    return {"quest": quest, "lesson": lesson, "learner": learner, "keeper": keeper}


def _launched_from_an_lms(learner: User, lesson) -> None:
    """What a launch keeps (lti.services): the platform's user, and where the scores go."""
    issuer = "https://lms.example.edu"
    Key.objects.generate()
    registration = LtiRegistration.objects.create(
        name="An LMS",
        issuer=issuer,
        client_id="tool",
        auth_url=f"{issuer}/auth",
        token_url=f"{issuer}/token",
        keyset_url=f"{issuer}/jwks",
    )
    LtiAccount.objects.create(issuer=issuer, subject=LTI_SUBJECT, user=learner)
    GradeLink.objects.create(
        user=learner,
        lesson=lesson,
        registration=registration,
        lineitem_url=f"{issuer}/lineitems/1",
        scopes="https://purl.imsglobal.org/spec/lti-ags/scope/score",
        platform_user_id=LTI_SUBJECT,
    )


def figures(world) -> dict:
    """What the boards and the admin's analytics add up, read as their readers read them."""
    board = APIClient().get(reverse("leaderboard"), {"period": "all"}).json()
    return {
        "xp_awarded": XPAward.objects.aggregate(total=Sum("amount"))["total"],
        "board": {e["user_id"]: e["xp"] for e in board["entries"]},
        "quest": _figures(insights.quest_analytics(quest_id=world["quest"].pk, refresh=True)),
        "lesson": _figures(insights.lesson_analytics(lesson_id=world["lesson"].pk, refresh=True)),
    }


def _figures(analytics: object) -> object:
    """The figures, without when they were computed (at any depth)."""
    if isinstance(analytics, dict):
        return {k: _figures(v) for k, v in analytics.items() if k != "computed_at"}
    return analytics


def tables_holding(texts: tuple[str, ...]) -> tuple[list[str], list[tuple[str, str, str]]]:
    """Every table of the project looked at, and where (table, column, text) any text is."""
    looked_at, found = [], []
    for model in apps.get_models(include_auto_created=True):
        if model._meta.proxy or not model._meta.managed:
            continue
        looked_at.append(model._meta.db_table)
        for field in model._meta.concrete_fields:
            if not isinstance(field, TEXT_FIELDS):
                continue
            for text in texts:
                if model._default_manager.filter(**{f"{field.name}__icontains": text}).exists():
                    found.append((model._meta.db_table, field.name, text))
    return sorted(looked_at), found


def test_an_account_deleted_end_to_end(world, django_capture_on_commit_callbacks):
    learner, keeper = world["learner"], world["keeper"]
    personal = (*PERSONAL, learner.public_handle)
    _, before_anything = tables_holding(personal)
    assert {table for table, _, _ in before_anything} >= {
        "accounts_user",
        "account_emailaddress",
        "exercises_submission",
        "lti_ltiaccount",
        "lti_gradelink",
    }, "the test's personal strings are where it says they are"
    assert Statement.objects.filter(user=learner).exists(), "xAPI rows were recorded"

    with django_capture_on_commit_callbacks(execute=True):
        ask_deletion(EMAIL)
        ask_deletion(KEEPER_EMAIL)

    # Within the grace period: the keeper signs in, which cancels theirs; nothing is purged.
    with time_machine.travel(timezone.now() + timedelta(days=3)):
        with django_capture_on_commit_callbacks(execute=True):
            browser_signed_in(KEEPER_EMAIL)
        assert tasks.purge_deleted_accounts.delay().get() == 0
    assert User.objects.get(pk=keeper.pk).deletion_requested_at is None
    assert User.objects.get(pk=learner.pk).email == EMAIL

    with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
        before = figures(world)
        with django_capture_on_commit_callbacks(execute=True):
            purged = tasks.purge_deleted_accounts.delay().get()
        after = figures(world)

    assert purged == 1
    assert after["xp_awarded"] == before["xp_awarded"] > 0
    assert after["quest"] == before["quest"]
    assert after["lesson"] == before["lesson"]
    # The board: the deleted learner is off it (inactive), everyone else's XP as it was.
    assert learner.pk in before["board"]
    assert after["board"] == {k: v for k, v in before["board"].items() if k != learner.pk}

    tombstone = User.objects.get(pk=learner.pk)
    assert (tombstone.is_active, tombstone.public_name) == (False, "A deleted learner")
    kept = User.objects.get(pk=keeper.pk)
    assert (kept.email, kept.display_name, kept.deleted_at) == (KEEPER_EMAIL, KEEPER_NAME, None)
    browser_signed_in(KEEPER_EMAIL)

    listed = APIClient().get(reverse("lesson-comments", args=[world["lesson"].slug])).json()
    threads = {c["body"]: c for c in listed["results"]}
    assert threads["Why 64 and not 768?"]["author"]["name"] == "A deleted learner"
    assert threads["A question of my own."]["author"]["name"] == "Other Learner"
    replies = (
        APIClient()
        .get(reverse("comment-replies", args=[threads["A question of my own."]["id"]]))
        .json()
    )
    assert [(r["body"], r["author"]["name"]) for r in replies["results"]] == [
        ("Thanks!", "A deleted learner")
    ]

    looked_at, found = tables_holding(personal)
    print("tables looked at:", ", ".join(looked_at))
    assert found == [], found
    assert set(looked_at) >= {
        "accounts_user",
        "account_emailaddress",
        "usersessions_usersession",
        "django_session",
        "django_admin_log",
        "community_comment",
        "community_issuereport",
        "community_notification",
        "community_emaildelivery",
        "exercises_submission",
        "exercises_checkanswer",
        "progress_xpaward",
        "reviews_reviewcard",
        "lti_ltiaccount",
        "lti_gradelink",
        "lti_tool_ltiuser",
        "xapi_statement",
        "learning_platform_unsenttask",
    }
    assert len(looked_at) == len(
        [m for m in apps.get_models(include_auto_created=True) if not m._meta.proxy]
    ), "every table of every app, none left out"


def test_an_email_to_the_learner_still_in_the_outbox_goes_with_the_purge(
    unreachable_broker, django_capture_on_commit_callbacks
):
    learner = UserFactory(email=EMAIL, display_name=NAME, password=PASSWORD)
    EmailAddress.objects.create(user=learner, email=EMAIL, verified=True, primary=True)
    # The broker is down: the e-mail telling the learner the date waits in the outbox, and may
    # stay there for good (OUTBOX_MAX_ATTEMPTS failed sends leave it for an operator).
    with django_capture_on_commit_callbacks(execute=True):
        ask_deletion(EMAIL)
    assert ("learning_platform_unsenttask", "kwargs", EMAIL) in tables_holding((EMAIL,))[1]
    unreachable_broker.up()

    with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
        assert tasks.purge_deleted_accounts.delay().get() == 1

    assert tables_holding((EMAIL, NAME, learner.public_handle))[1] == []
