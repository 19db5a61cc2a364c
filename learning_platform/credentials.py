"""Whether a request says who it is from: the one rule that compression (never compress an
answer that may hold a secret), the API's `Vary` (answers differ by who asks) and the request
log (look the user up only when there is someone to look up) share."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

# Beside the session cookie: allauth's app token (learning_platform/api/authentication.py) and
# any Authorization a client sends.
CREDENTIAL_HEADERS = ("X-Session-Token", "Authorization")


def carries_credentials(request: HttpRequest) -> bool:
    return settings.SESSION_COOKIE_NAME in request.COOKIES or any(
        header in request.headers for header in CREDENTIAL_HEADERS
    )
