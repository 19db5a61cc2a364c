"""Error tracking (Sentry) and tracing (OpenTelemetry), each on only when configured.

With SENTRY_DSN unset and OTEL_EXPORTER_OTLP_ENDPOINT unset (the default) nothing of either is
imported and no request pays for them. Their packages are the `observability` extra
(requirements/observability.txt), not in the base lock: install it where they are used.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings

from learning_platform.observe import current_request_id


def setup() -> None:
    """Start what is configured; called once per process (LearningPlatformConfig.ready)."""
    if settings.SENTRY_DSN:
        _start_sentry()
    if settings.OTEL_EXPORTER_OTLP_ENDPOINT:
        _start_tracing()


def _tag_request_id(event: Any, hint: Any) -> Any:
    request_id = current_request_id.get()
    if request_id:
        event.setdefault("tags", {})["request_id"] = request_id
    return event


def _start_sentry() -> None:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=settings.SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        traces_sample_rate=settings.SENTRY_TRACES_SAMPLE_RATE,
        send_default_pii=False,
        before_send=_tag_request_id,
    )


def _start_tracing() -> None:
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.instrumentation.celery import CeleryInstrumentor
    from opentelemetry.instrumentation.django import DjangoInstrumentor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    # OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES are read by the SDK; this name by default.
    named = os.environ.get("OTEL_SERVICE_NAME")
    resource = Resource.create({} if named else {"service.name": "learning-platform"})
    provider = TracerProvider(resource=resource)
    endpoint = settings.OTEL_EXPORTER_OTLP_ENDPOINT.rstrip("/") + "/v1/traces"
    # The processor's export thread is started again in each forked pool process by the SDK.
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    trace.set_tracer_provider(provider)
    DjangoInstrumentor().instrument()
    CeleryInstrumentor().instrument()  # type: ignore[no-untyped-call]
