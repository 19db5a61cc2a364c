"""Project-wide pytest setup: test settings, API clients, isolation of cache and throttles."""

import os

os.environ.setdefault("TESTING", "1")
# Each xdist worker gets its own cache key prefix, so throttles and caches never leak across.
os.environ.setdefault("CACHE_KEY_PREFIX", f"test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _isolated_cache(settings):
    from django.core.cache import cache

    _clear_cache(cache, settings)
    yield
    _clear_cache(cache, settings)


def _clear_cache(cache, settings) -> None:
    if settings.REDIS_URL:
        # cache.clear() would FLUSHDB, taking Celery's queues and other workers' keys with it.
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
    else:
        cache.clear()


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def user(db):
    from accounts.tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def staff_user(db):
    from accounts.tests.factories import UserFactory

    return UserFactory(is_staff=True)


@pytest.fixture
def user_client(user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def staff_client(staff_user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(staff_user)
    return client
