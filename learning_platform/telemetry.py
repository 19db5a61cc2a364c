"""Error tracking (Sentry) and tracing (OpenTelemetry), each on only when configured.

With SENTRY_DSN unset and OTEL_EXPORTER_OTLP_ENDPOINT unset (the default) nothing of either is
imported and no request pays for them. Their packages are the `observability` extra
(requirements/observability.txt), not in the base lock: install it where they are used.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings

from learning_platform import secret_urls
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


# Where the keys of e-mailed links travel outside a path: the reset and confirmation keys in
# allauth's headless bodies and headers, the app's session token. Sentry's scrubber drops them.
SECRET_FIELDS = ("key", "x-password-reset-key", "x-email-verification-key", "x-session-token")


def _before_send(event: Any, hint: Any) -> Any:
    """Every string of an event (its URL, Referer, breadcrumbs, a failed task's arguments such
    as an e-mail's body) with the keys of e-mailed links redacted, and the request id."""
    return _tag_request_id(secret_urls.redact_strings(event), hint)


def sentry_options() -> dict[str, Any]:
    """What Sentry is started with, but the DSN and the integrations."""
    from sentry_sdk.scrubber import DEFAULT_DENYLIST, EventScrubber

    return {
        "traces_sample_rate": settings.SENTRY_TRACES_SAMPLE_RATE,
        "send_default_pii": False,
        "event_scrubber": EventScrubber(denylist=[*DEFAULT_DENYLIST, *SECRET_FIELDS]),
        "before_send": _before_send,
        "before_send_transaction": _before_send,
    }


def _start_sentry() -> None:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=settings.SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        **sentry_options(),
    )


def redact_span(span: Any, request: Any) -> None:
    """OpenTelemetry's hook on each request's span: its URL attributes keep no key."""
    for name, value in dict(getattr(span, "attributes", None) or {}).items():
        if isinstance(value, str) and (redacted := secret_urls.redact(value)) != value:
            span.set_attribute(name, redacted)


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
    DjangoInstrumentor().instrument(request_hook=redact_span)
    # opentelemetry-instrumentation-celery's instrumentor has no annotations.
    CeleryInstrumentor().instrument()  # type: ignore[no-untyped-call]
