"""Writes that could not reach Redis (learning_platform/cache.py, lost_writes.py): once Redis is
back, no read answers what they should have replaced.

The cache goes through a proxy the test controls in front of the tests' Redis, which it cuts
(connections reset, new ones refused), restores, or freezes (connections accepted, nothing
answered). After a restore each test ends the backend's pause, as when RETRY_AFTER is over.
"""

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings

from learning_platform import versioned
from learning_platform.cache import RedisCache
from learning_platform.models import LostCacheWrite
from learning_platform.tasks import settle_cache
from learning_platform.tests.redis_proxy import RedisProxy
from lessons.tests.factories import LessonFactory, QuestFactory
from progress.models import LearnerStats

pytestmark = pytest.mark.django_db

BROWSER = "/_allauth/browser/v1"


@pytest.fixture
def proxy():
    if not settings.REDIS_URL:
        pytest.skip("needs REDIS_URL: the proxy stands in front of Redis")
    proxy = RedisProxy(settings.REDIS_URL)
    default = settings.CACHES["default"]
    # The tests' own prefix: the autouse cache fixture deletes these keys afterwards.
    with override_settings(CACHES={"default": {**default, "LOCATION": proxy.url}}):
        yield proxy
    proxy.close()


def back(proxy) -> None:
    """Redis answers again, and this process's pause after the failure is over. A connection
    the loss reset fails once more on its first use (another pause, served from the database):
    each of the backend's two (reads, writes) is used once first."""
    proxy.restore()
    for use in (lambda: cache.get("-"), lambda: cache.touch("-")):
        cache.breaker.reset()
        use()
    cache.breaker.reset()


def recorded() -> list[str]:
    return list(LostCacheWrite.objects.values_list("key", flat=True))


def test_a_write_that_missed_redis_is_deleted_there_before_the_next_read(proxy):
    cache.set("greeting", "old")
    proxy.cut()
    cache.set("greeting", "new")  # misses Redis, which keeps "old"

    back(proxy)

    assert cache.get("greeting") is None
    assert recorded() == [cache.make_key("greeting")]


def test_keys_another_process_missed_are_deleted_by_any_process_that_saw_redis_fail(proxy):
    cache.set_many({"a": 1, "b": 2})
    proxy.cut()
    cache.delete_many(["a", "b"])  # misses Redis: recorded in the database
    cache.reach.lost.clear()  # as if the process that missed them were gone

    back(proxy)

    assert cache.get_many(["a", "b"]) == {}


def test_the_sweep_deletes_what_no_returning_process_deleted(proxy):
    cache.set("greeting", "old")
    proxy.cut()
    cache.set("greeting", "new")
    proxy.restore()
    # Another process, which never saw Redis fail (and the writer's is gone): it reads "old".
    params = {k: v for k, v in settings.CACHES["default"].items() if k != "LOCATION"}
    other = RedisCache(settings.REDIS_URL, params)
    assert other.get("greeting") == "old"
    cache.breaker.reset()  # the sweep's process: its pause is over

    assert settle_cache() == 1

    assert other.get("greeting") is None
    assert recorded() == []


def test_the_sweep_keeps_the_records_while_redis_does_not_answer(proxy):
    proxy.cut()
    cache.delete("greeting")

    assert settle_cache() == 0

    assert recorded() == [cache.make_key("greeting")]


def test_a_key_is_recorded_once_between_two_failures(proxy):
    proxy.cut()
    for n in range(5):
        cache.set("counter", n)  # the first fails, the rest skip Redis (paused)
    cache.breaker.reset()
    cache.set("counter", 5)  # tries Redis again, and fails again

    assert recorded() == [cache.make_key("counter")] * 2


def test_reads_while_redis_is_down_build_and_keep_nothing(proxy):
    builds = []

    @versioned.cached(key=lambda: "test:lost:value", versions=lambda: ["test:lost:version"])
    def value() -> int:
        builds.append(1)
        return len(builds)

    proxy.cut()
    assert [value(), value()] == [1, 2]
    back(proxy)

    assert recorded() == []  # nothing written, so nothing lost
    assert [value(), value()] == [3, 3]


@pytest.fixture
def demo_lesson():
    return LessonFactory(quest=QuestFactory(slug=settings.DEMO_QUEST_SLUG), xp=40)


def test_progress_read_before_a_loss_is_not_answered_after_it(
    proxy, user, demo_lesson, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(user)
    before = client.get("/api/v1/me/progress")
    assert client.get("/api/v1/me/progress").json() == before.json()  # from the cache
    proxy.cut()
    with django_capture_on_commit_callbacks(execute=True):
        completed = client.post(f"/api/v1/lessons/{demo_lesson.slug}/complete")
    during = client.get("/api/v1/me/progress")

    back(proxy)
    after = client.get("/api/v1/me/progress", HTTP_IF_NONE_MATCH=before.headers.get("ETag", ""))

    assert completed.status_code == 201, completed.content
    xp = LearnerStats.objects.get(user=user).xp_total  # the lesson's 40, and achievements'
    assert before.json()["xp"] == 0
    assert during.json()["xp"] == after.json()["xp"] == xp >= 40
    assert after.status_code == 200
    assert demo_lesson.slug in after.json()["completed_lessons"]


def test_a_comment_posted_during_a_loss_is_counted_once_redis_is_back(
    proxy, user, demo_lesson, django_capture_on_commit_callbacks
):
    client = Client()
    path = f"/api/v1/lessons/{demo_lesson.slug}/"
    before = client.get(path)
    client.force_login(user)
    proxy.cut()
    with django_capture_on_commit_callbacks(execute=True):
        posted = client.post(
            f"{path}comments/", {"body": "While Redis was away"}, content_type="application/json"
        )

    back(proxy)
    after = Client().get(path, HTTP_IF_NONE_MATCH=before.headers.get("ETag", ""))

    assert posted.status_code == 201, posted.content
    assert after.status_code == 200
    assert after.json()["comment_count"] == before.json()["comment_count"] + 1


def test_a_session_signed_out_during_a_loss_does_not_come_back_with_redis(proxy, user):
    client = Client()
    client.force_login(user)
    assert client.get("/api/v1/me/").status_code == 200  # the session, from Redis
    kept = client.cookies[settings.SESSION_COOKIE_NAME].value
    proxy.cut()
    assert client.delete(f"{BROWSER}/auth/session").status_code == 401  # signed out

    back(proxy)
    replayed = Client()
    replayed.cookies[settings.SESSION_COOKIE_NAME] = kept

    assert replayed.get("/api/v1/me/").status_code in (401, 403)


def test_a_learner_deactivated_during_a_loss_is_refused_once_redis_is_back(
    proxy, user, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(user)
    assert client.get("/api/v1/me/").status_code == 200  # the user row, cached in Redis
    proxy.cut()
    with django_capture_on_commit_callbacks(execute=True):
        user.is_active = False
        user.save()  # dropping the cached row misses Redis
    during = client.get("/api/v1/me/")  # the row from the database

    back(proxy)

    assert during.status_code in (401, 403)
    assert client.get("/api/v1/me/").status_code in (401, 403)
