"""Sentry and OpenTelemetry: nothing of them is imported unless configured; each starts when it is.

Each case runs in a fresh interpreter: the test process may have imported anything, and
the instrumentations patch Django for good once started.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
TRACING = ("opentelemetry.sdk.trace", "opentelemetry.exporter", "opentelemetry.instrumentation")
import django
django.setup()
from django.test import Client
status = Client().get("/healthz").status_code
report = {
    "status": status,
    "sentry_imported": any(m == "sentry_sdk" or m.startswith("sentry_sdk.") for m in sys.modules),
    # redis-py imports OpenTelemetry's API and metrics SDK by itself when they are installed:
    # tracing, its exporter and the instrumentations are what TRACING brings.
    "otel_imported": any(m.startswith(TRACING) for m in sys.modules),
}
if report["sentry_imported"]:
    import sentry_sdk
    report["sentry_active"] = sentry_sdk.get_client().is_active()
if report["otel_imported"]:
    from opentelemetry.instrumentation.django import DjangoInstrumentor
    from opentelemetry.instrumentation.celery import CeleryInstrumentor
    report["django_traced"] = DjangoInstrumentor().is_instrumented_by_opentelemetry
    report["celery_traced"] = CeleryInstrumentor().is_instrumented_by_opentelemetry
print(json.dumps(report))
"""


def probe(**environment: str) -> dict:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("SENTRY_DSN", "OTEL_EXPORTER_OTLP_ENDPOINT")
    }
    env.update(DJANGO_SETTINGS_MODULE="learning_platform.settings", TESTING="1", **environment)
    env.pop("DATABASE_URL", None)  # /healthz touches no database
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_neither_sentry_nor_opentelemetry_is_imported_when_unset():
    report = probe()

    assert report == {"status": 200, "sentry_imported": False, "otel_imported": False}


def test_sentry_starts_with_a_dsn():
    # Nothing listens on port 9: no event is sent by a request that succeeds anyway.
    report = probe(SENTRY_DSN="http://public@127.0.0.1:9/1")

    assert report["status"] == 200
    assert report["sentry_active"] is True
    assert report["otel_imported"] is False


def test_opentelemetry_instruments_django_and_celery_with_an_endpoint():
    # Nothing sampled: no span waits at exit to be exported to the dead endpoint.
    report = probe(
        OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:9", OTEL_TRACES_SAMPLER="always_off"
    )

    assert report["status"] == 200
    assert report["django_traced"] is True
    assert report["celery_traced"] is True
    assert report["sentry_imported"] is False
