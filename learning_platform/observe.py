"""Seeing inside a request: its id, its metrics and its one log line.

Every request gets an id: the client's or the balancer's `X-Request-ID` when it is a plain token
(letters, digits, `.`, `_`, `:`, `-`, at most 128), else a new one. It is answered in the same
header, stamped on every log record written while the request runs (`RequestIdFilter`), and
carried into the tasks the request causes (the outbox row keeps it; learning_platform/
observe_tasks.py puts it in the message and back in the worker's records).

After the response, one log line (`learning_platform.request`: request id, method, route,
path, status, duration, user id or "anonymous") and one observation of
`lp_http_request_duration_seconds` by route, method and status.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.utils.functional import empty
from pythonjsonlogger.json import JsonFormatter

from learning_platform.credentials import carries_credentials
from learning_platform.metrics import HTTP_REQUEST_DURATION

HEADER = "X-Request-ID"
_VALID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
# Methods outside this list share one label, so a client cannot make up new series.
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED_ROUTE = "<unmatched>"

current_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
access_logger = logging.getLogger("learning_platform.request")


class RequestIdFilter(logging.Filter):
    """Stamps each record with the request id of the request or task it was written in."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", None):
            record.request_id = current_request_id.get() or "-"
        return True


def json_formatter() -> logging.Formatter:
    """One JSON object per line (LOG_FORMAT=json): time, level, logger, message, request id
    and whatever the record carries in `extra`."""
    return JsonFormatter(
        "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        timestamp=False,
    )


def _route(request: HttpRequest) -> str:
    match = request.resolver_match
    return (match.route or match.view_name) if match is not None else UNMATCHED_ROUTE


def _user_id(request: HttpRequest) -> int | str:
    """The signed-in user's id, or "anonymous"; looks the user up only when the request
    carried credentials and nothing looked at them yet."""
    user = getattr(request, "user", None)
    if user is None:
        return "anonymous"
    if getattr(user, "_wrapped", None) is empty and not carries_credentials(request):
        return "anonymous"
    return user.pk if user.is_authenticated else "anonymous"


class RequestObservingMiddleware:
    """First in MIDDLEWARE: its timing covers every other middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        given = request.META.get("HTTP_X_REQUEST_ID")
        request_id = given if given and _VALID.fullmatch(given) else uuid.uuid4().hex
        token = current_request_id.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            duration = time.perf_counter() - started
            response[HEADER] = request_id
            self._record(request, response, duration, request_id)
        finally:
            current_request_id.reset(token)
        return response

    @staticmethod
    def _record(
        request: HttpRequest, response: HttpResponseBase, duration: float, request_id: str
    ) -> None:
        route = _route(request)
        method = request.method if request.method in _METHODS else "other"
        status = response.status_code
        HTTP_REQUEST_DURATION.labels(route, method, str(status)).observe(duration)
        if not access_logger.isEnabledFor(logging.INFO):
            return
        fields: dict[str, Any] = {
            "request_id": request_id,
            "method": method,
            "route": route,
            "path": request.path,
            "status": status,
            "duration_ms": round(duration * 1000, 2),
            "user_id": _user_id(request),
        }
        access_logger.info(
            "%s %s %s %.1fms", method, request.path, status, fields["duration_ms"], extra=fields
        )
