"""Redis (the cache) unreachable: every request still answers, from the database.

The cache points at a port in this project's range where nothing listens, so every connection
is refused, as with a Redis that is down. Settings are overridden around the requests only:
the autouse cache fixture cleans the real cache at teardown.
"""

from datetime import timedelta

import pytest
import time_machine
from django.test import Client, override_settings
from django.utils import timezone

from exercises.models import Submission
from exercises.services.catalogue import load_reference_catalogue
from exercises.tests.conftest import GOOD_CSV
from exercises.tests.factories import ExerciseFactory
from lessons.tests.factories import LessonFactory

pytestmark = pytest.mark.django_db

DEAD_REDIS = "redis://127.0.0.1:18299/0"  # a port of this project's range; nothing listens
BROWSER = "/_allauth/browser/v1"
PASSWORD = "S3cure-passw0rd!"


def dead_cache(**options):
    return override_settings(
        CACHES={
            "default": {
                "BACKEND": "learning_platform.cache.RedisCache",
                "LOCATION": DEAD_REDIS,
                "KEY_PREFIX": "dead",
                "OPTIONS": options,
            }
        },
        SESSION_ENGINE="django.contrib.sessions.backends.cached_db",
    )


def test_signed_in_requests_succeed_from_the_database_while_redis_is_down(
    django_capture_on_commit_callbacks,
):
    load_reference_catalogue()
    exercise = ExerciseFactory()
    lesson = LessonFactory(xp=40)
    client = Client()

    with dead_cache(), django_capture_on_commit_callbacks(execute=True):
        signup = client.post(
            f"{BROWSER}/auth/signup",
            {"email": "outage@example.com", "password": PASSWORD},
            content_type="application/json",
        )
        me = client.get("/api/v1/me/")
        complete = client.post(f"/api/v1/lessons/{lesson.slug}/complete")
        progress = client.get("/api/v1/me/progress")
        submit = client.post(
            f"/api/v1/exercises/{exercise.id}/submissions/",
            {"format": "csv", "content": GOOD_CSV},
            content_type="application/json",
        )
        logout = client.delete(f"{BROWSER}/auth/session")
        login = client.post(
            f"{BROWSER}/auth/login",
            {"email": "outage@example.com", "password": PASSWORD},
            content_type="application/json",
        )
        me_again = client.get("/api/v1/me/")

    assert signup.status_code == 200, signup.content
    assert me.status_code == 200, me.content
    assert complete.status_code == 201, complete.content
    assert progress.status_code == 200, progress.content
    assert progress.json()["xp"] >= 40
    assert submit.status_code == 202, submit.content
    assert Submission.objects.filter(user__email="outage@example.com").count() == 1
    assert logout.status_code == 401  # allauth: signed out
    assert login.status_code == 200, login.content
    assert me_again.json()["email"] == "outage@example.com"


def test_throttled_endpoints_fail_open_while_redis_is_down(user):
    lesson = LessonFactory()
    client = Client()
    client.force_login(user)

    with dead_cache():
        answers = [
            client.post(
                f"/api/v1/lessons/{lesson.slug}/comments/",
                {"body": f"comment {i}"},
                content_type="application/json",
            ).status_code
            for i in range(3)
        ]

    assert answers == [201, 201, 201]


def test_after_one_refused_connection_the_cache_skips_redis_for_a_while():
    from django.core.cache import cache

    with dead_cache(RETRY_AFTER=30):
        assert cache.get("k", "fallback") == "fallback"
        pool = cache.client.pool(write=False)
        created_before = pool._created_connections
        for _ in range(20):
            cache.set("k", 1)
            assert cache.get("k") is None
        assert pool._created_connections == created_before


def test_the_cache_tries_redis_again_once_its_pause_is_over(caplog):
    from django.core.cache import cache

    with dead_cache(RETRY_AFTER=30), time_machine.travel(timezone.now(), tick=False) as clock:
        cache.get("k")
        assert cache.is_paused()
        clock.shift(timedelta(seconds=31))
        caplog.clear()

        cache.get("k")

        assert cache.is_paused()
        assert "Cache unreachable" in caplog.text  # it tried, and failed again


def test_failed_sign_in_limits_hold_while_redis_is_down(settings):
    from django.core.cache import caches

    from accounts.tests.factories import UserFactory

    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}  # production's
    UserFactory(email="victim@example.com", password=PASSWORD)

    def login(password: str):
        return Client().post(
            "/_allauth/app/v1/auth/login",
            {"email": "victim@example.com", "password": password},
            content_type="application/json",
        )

    with dead_cache(FALLBACK_KEY_PREFIXES=["allauth:rl:"]):
        caches["default"].fallback.clear()
        wrong = [login(f"guess-{n}") for n in range(5)]
        right = login(PASSWORD)

    assert {r.status_code for r in wrong} == {400}
    assert right.status_code == 400
    assert right.json()["errors"][0]["code"] == "too_many_login_attempts"


def test_the_production_cache_settings_keep_allauths_limits_through_an_outage():
    from django.conf import settings

    if settings.CACHES["default"]["BACKEND"] != "learning_platform.cache.RedisCache":
        pytest.skip("the embedded default has no Redis to lose")
    assert "allauth:rl:" in settings.CACHES["default"]["OPTIONS"]["FALLBACK_KEY_PREFIXES"]
