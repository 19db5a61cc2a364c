"""One error shape for the whole API.

Every 4xx/5xx answer from the API is a JSON object:

    {"type": "validation_error", "title": "Invalid input.", "status": 400,
     "detail": "human-readable sentence", "errors": {"field": ["message", ...]}}

`type` is a stable, machine-readable code; `errors` is present (possibly empty) on every error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.csrf import csrf_failure as html_csrf_failure
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from learning_platform import errors as domain
from learning_platform.admin_pages import admin_error_page, is_admin_request
from learning_platform.api.csrf import CSRF_HINT, CsrfFailed

logger = logging.getLogger(__name__)

# Paths whose clients read JSON: this API and allauth's headless API.
JSON_PATH_PREFIXES = ("/api/", "/_allauth/")

TITLES = {
    400: "Invalid input.",
    401: "Not authenticated.",
    403: "Permission denied.",
    404: "Not found.",
    405: "Method not allowed.",
    406: "Not acceptable.",
    409: "Conflict.",
    413: "Payload too large.",
    414: "URI too long.",
    415: "Unsupported media type.",
    429: "Too many requests.",
    500: "Server error.",
    503: "Service unavailable.",
}


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


def error_body(
    *, status_code: int, code: str, detail: str, errors: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "type": code,
        "title": TITLES.get(status_code, "Error."),
        "status": status_code,
        "detail": detail,
        "errors": errors or {},
    }


def _flatten_validation(data: Any) -> tuple[str, dict[str, Any]]:
    """Turn DRF's ValidationError data into (summary sentence, {field: [messages]})."""
    if isinstance(data, dict):
        errors: dict[str, list[str]] = {}
        for field, messages in data.items():
            _collect_field_errors(str(field), messages, errors)
        non_field = errors.pop("non_field_errors", None)
        if non_field:
            errors["non_field_errors"] = non_field
        first_field, first_messages = next(iter(errors.items()), (None, None))
        first = _first_message(first_messages)
        if first_field in (None, "non_field_errors"):
            summary = first or "Invalid input."
        else:
            summary = f"{first_field}: {first}" if first else "Invalid input."
        return summary, errors
    if isinstance(data, list):
        messages = [str(m) for m in data]
        return (messages[0] if messages else "Invalid input."), {"non_field_errors": messages}
    return str(data), {}


def _collect_field_errors(path: str, messages: Any, errors: dict[str, list[str]]) -> None:
    """Nested errors (an item of a list, a field of an object) go under a dotted path, so
    `errors` stays {field: [messages]}: `answers.0.id`, not {"answers": {"0": {"id": ...}}}."""
    if isinstance(messages, dict):
        for key, nested in messages.items():
            _collect_field_errors(f"{path}.{key}", nested, errors)
    elif isinstance(messages, list) and any(isinstance(m, dict | list) for m in messages):
        # A list serializer's errors: one entry per item, empty for the items that were valid.
        for index, nested in enumerate(messages):
            if nested:
                _collect_field_errors(f"{path}.{index}", nested, errors)
    elif isinstance(messages, list):
        errors[path] = [str(m) for m in messages]
    else:
        errors[path] = [str(messages)]


def _first_message(messages: Any) -> str | None:
    if isinstance(messages, str):
        return messages
    if isinstance(messages, dict):
        messages = list(messages.values())
    return _first_message(messages[0]) if isinstance(messages, list) and messages else None


# Each kind of the project's own exceptions (learning_platform/errors.py), mapped here once.
DOMAIN_STATUS: dict[type[domain.DomainError], int] = {
    domain.InvalidInput: status.HTTP_400_BAD_REQUEST,
    domain.NotAllowed: status.HTTP_403_FORBIDDEN,
    domain.NotFound: status.HTTP_404_NOT_FOUND,
    domain.Conflict: status.HTTP_409_CONFLICT,
    domain.TooLarge: status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    domain.Unavailable: status.HTTP_503_SERVICE_UNAVAILABLE,
}


def domain_status(exc: domain.DomainError) -> int:
    for kind in type(exc).__mro__:
        if kind in DOMAIN_STATUS:
            return DOMAIN_STATUS[kind]
    return status.HTTP_400_BAD_REQUEST


def _code_for(exc: exceptions.APIException) -> str:
    if isinstance(exc, exceptions.ValidationError):
        return "validation_error"
    codes = exc.get_codes()
    return codes if isinstance(codes, str) else exc.default_code


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, domain.DomainError):
        status_code = domain_status(exc)
        return Response(
            error_body(
                status_code=status_code, code=exc.code, detail=exc.detail, errors=exc.errors
            ),
            status=status_code,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(exc.args[0] if exc.args else None)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()

    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        # An unexpected error: log it with its traceback, answer the same shape.
        logger.exception("Unhandled error in %s", context.get("view"), exc_info=exc)
        return Response(
            error_body(
                status_code=500, code="server_error", detail="An unexpected error occurred."
            ),
            status=500,
        )

    if isinstance(exc, exceptions.ValidationError) or isinstance(exc.detail, dict):
        detail, errors = _flatten_validation(exc.detail)
    else:
        detail, errors = ("" if isinstance(exc.detail, list) else str(exc.detail)), {}
    response.data = error_body(
        status_code=response.status_code, code=_code_for(exc), detail=detail, errors=errors
    )
    return response


def json_error(*, status_code: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse(
        error_body(status_code=status_code, code=code, detail=detail), status=status_code
    )


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_admin_request(request):
        return admin_error_page(request, status=404, template="admin/404.html")
    return json_error(status_code=404, code="not_found", detail="No such resource or page.")


class JsonNotFoundUnderDebugMiddleware:
    """Under DEBUG (`make run`), Django answers a path no URL matches with its HTML debug page
    instead of calling handler404: on the JSON paths (`/api`, `/api/...`, `/_allauth/...`)
    this answers the API's JSON 404 instead, as in production, so the README's promise and the
    clients' error handling hold in development too. Without DEBUG it does nothing.

    Outside CommonMiddleware, whose slash redirect turns some 404s into redirects first."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 404
            and settings.DEBUG
            and (request.path == "/api" or request.path.startswith(JSON_PATH_PREFIXES))
            and response.get("Content-Type", "").startswith("text/html")
        ):
            return handler404(request)
        return response


def handler500(request: HttpRequest) -> HttpResponse:
    if is_admin_request(request):
        return admin_error_page(request, status=500, template="admin/500.html")
    return json_error(status_code=500, code="server_error", detail="An unexpected error occurred.")


def handler400(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return json_error(status_code=400, code="bad_request", detail="Bad request.")


def handler403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_admin_request(request):
        return admin_error_page(request, status=403, template="admin/403.html")
    return json_error(status_code=403, code="permission_denied", detail="Forbidden.")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: the API's error shape for API and allauth paths, Django's page
    elsewhere (the admin)."""
    if not request.path.startswith(JSON_PATH_PREFIXES):
        return html_csrf_failure(request, reason=reason)
    return json_error(
        status_code=403,
        code=CsrfFailed.default_code,
        detail=f"CSRF verification failed: {reason} {CSRF_HINT}",
    )
