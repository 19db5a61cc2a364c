"""Liveness (`/healthz`) and readiness (`/readyz`) probes for load balancers and compose."""

import logging

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        logger.warning("readyz: database unreachable", exc_info=True)
        return False
    return True


def _broker_ok() -> bool:
    if not settings.REDIS_URL:
        return True  # embedded mode: tasks run in-process, there is no broker to reach
    import redis

    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
        )
        return bool(client.ping())
    except Exception:
        logger.warning("readyz: broker unreachable", exc_info=True)
        return False


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": "ok" if _database_ok() else "unavailable",
        "broker": ("ok" if _broker_ok() else "unavailable") if settings.REDIS_URL else "in-process",
    }
    ready = "unavailable" not in checks.values()
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )
