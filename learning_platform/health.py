"""Liveness (`/healthz`) and readiness (`/readyz`) probes for load balancers and compose."""

import logging

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from learning_platform import broker, clock

logger = logging.getLogger(__name__)


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _database_ok() -> bool:
    try:
        # SQL text: a round trip that reads no table, the least the server can answer.
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        logger.warning("readyz: database unreachable", exc_info=True)
        return False
    return True


def _cache_state() -> str:
    from django.core.cache import cache

    ping = getattr(cache, "ping", None)
    if ping is None:
        return "local"  # a per-process memory cache: nothing to reach
    return "ok" if ping() else "unavailable"


def _broker_state() -> str:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")) and not broker.is_rabbitmq(url):
        return "in-process"  # embedded mode: tasks run in-process, there is no broker to reach
    try:
        return "ok" if broker.broker_answers(url, timeout=1) else "unavailable"
    except Exception:
        logger.warning("readyz: broker unreachable", exc_info=True)
        return "unavailable"


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Ready (200) while the database answers. Without the cache or the broker the API still
    serves every request, slower (the cache's reads go to the database) or with side effects
    waiting in the database for the periodic sweep, so the answer is 200 `degraded` naming
    them; only a database that does not answer makes it 503 `unavailable`. A node whose wall
    clock is off the database's beyond the tolerance is `degraded` too (`clock: skewed`): its
    answers are right (learning_platform/clock.py corrects them), its clock needs an operator."""
    checks = {
        "database": "ok" if _database_ok() else "unavailable",
        "cache": _cache_state(),
        "broker": _broker_state(),
        "clock": clock.state(),
    }
    if checks["database"] != "ok":
        return JsonResponse({"status": "unavailable", "checks": checks}, status=503)
    degraded = [name for name, state in checks.items() if state in ("unavailable", "skewed")]
    if degraded:
        return JsonResponse({"status": "degraded", "checks": checks, "degraded": degraded})
    return JsonResponse({"status": "ok", "checks": checks})
