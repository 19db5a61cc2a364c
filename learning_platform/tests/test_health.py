"""Liveness and readiness probes."""

from datetime import UTC, datetime, timedelta
from unittest.mock import patch

import pytest
from django.db import OperationalError
from django.test import override_settings

# Settings are overridden around the request only: the project's autouse cache fixture reads
# settings.REDIS_URL at teardown to clean up, so it must see the real value again by then.


LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


class _UnreachableDatabase:
    def cursor(self):
        raise OperationalError("could not connect to server: Connection refused")


def test_healthz_answers_ok_without_touching_the_database(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_probes_are_never_cached(client):
    response = client.get("/healthz")

    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_readyz_is_ready_in_embedded_mode_with_in_process_tasks(client):
    with override_settings(REDIS_URL="", CELERY_BROKER_URL="memory://", CACHES=LOCAL_CACHE):
        response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "cache": "local", "broker": "in-process", "clock": "node"},
    }


@pytest.mark.django_db
def test_readyz_pings_the_broker_when_one_is_configured(client):
    import redis

    pinged = []

    class FakeRedis:
        def ping(self):
            pinged.append(True)
            return True

    with (
        override_settings(
            REDIS_URL="redis://broker.internal:6379/0",
            CELERY_BROKER_URL="redis://broker.internal:6379/0",
            CACHES=LOCAL_CACHE,
        ),
        patch.object(redis.Redis, "from_url", lambda url, **kwargs: FakeRedis()),
    ):
        response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json()["checks"] == {
        "database": "ok",
        "cache": "local",
        "broker": "ok",
        "clock": "node",
    }
    assert pinged == [True]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "broker_url",
    ["redis://127.0.0.1:1/0", "amqp://guest:guest@127.0.0.1:1//"],  # nothing listens on port 1
    ids=["redis", "rabbitmq"],
)
def test_readyz_is_degraded_not_down_when_the_broker_is_unreachable(client, broker_url):
    # Requests still succeed (side effects wait in the database for the sweep), so the
    # instance stays in the load balancer; the body names what is missing.
    with override_settings(
        REDIS_URL="redis://127.0.0.1:1/0",
        CELERY_BROKER_URL=broker_url,
        CACHES=LOCAL_CACHE,
    ):
        response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "checks": {"database": "ok", "cache": "local", "broker": "unavailable", "clock": "node"},
        "degraded": ["broker"],
    }


@pytest.mark.django_db
def test_readyz_is_degraded_when_the_cache_is_unreachable(client):
    with override_settings(
        CELERY_BROKER_URL="memory://",
        CACHES={
            "default": {
                "BACKEND": "learning_platform.cache.RedisCache",
                "LOCATION": "redis://127.0.0.1:18298/0",  # nothing listens there
            }
        },
    ):
        response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "checks": {
            "database": "ok",
            "cache": "unavailable",
            "broker": "in-process",
            "clock": "node",
        },
        "degraded": ["cache"],
    }


@pytest.mark.django_db
def test_readyz_is_unavailable_when_the_database_is_unreachable(client, monkeypatch):
    from learning_platform import health

    monkeypatch.setattr(health, "connection", _UnreachableDatabase())

    with override_settings(REDIS_URL="", CELERY_BROKER_URL="memory://", CACHES=LOCAL_CACHE):
        response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {
            "database": "unavailable",
            "cache": "local",
            "broker": "in-process",
            "clock": "node",
        },
    }


def test_probes_answer_get_only(client):
    response = client.post("/healthz")

    assert response.status_code == 405


def test_probes_answer_over_plain_http_when_https_is_enforced(settings):
    from django.test import Client

    settings.SECURE_SSL_REDIRECT = True
    client = Client()

    assert client.get("/healthz").status_code == 200
    assert client.get("/api/v1/quests/").status_code == 301


@pytest.mark.django_db
def test_readyz_is_degraded_naming_the_clock_on_a_node_minutes_ahead(client, database_clock):
    import time_machine

    with time_machine.travel(datetime.now(UTC) + timedelta(minutes=10), tick=True):
        response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert response.json()["checks"]["clock"] == "skewed"
    assert "clock" in response.json()["degraded"]


@pytest.mark.django_db
def test_readyz_says_the_clock_is_ok_when_the_node_agrees_with_the_database(client, database_clock):
    response = client.get("/readyz")

    assert response.json()["checks"]["clock"] == "ok"
