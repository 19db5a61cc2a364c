"""The client's address behind load balancers: one setting (NUM_PROXIES) for everything.

`TrustedProxiesMiddleware` runs first and replaces REMOTE_ADDR with the address the first
trusted proxy saw (the NUM_PROXIES-th entry from the right of X-Forwarded-For). Everything
downstream then reads REMOTE_ADDR: DRF's throttles (REST_FRAMEWORK["NUM_PROXIES"] stays 0),
allauth's rate limits (ALLAUTH_TRUSTED_PROXY_COUNT stays 0), Django's logs and gunicorn's
access log (`%(h)s` reads the same WSGI environ after the response). Entries left of that one
are the client's to forge and are ignored; with NUM_PROXIES=0 the header is ignored.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


def client_address(*, forwarded_for: str | None, remote_addr: str, proxies: int) -> str:
    """The address the outermost trusted proxy saw, or `remote_addr` when there is none or
    the header is not an address (a misconfigured proxy must not make every client one)."""
    if proxies <= 0 or not forwarded_for:
        return remote_addr
    hops = [hop.strip() for hop in forwarded_for.split(",")]
    candidate = hops[-min(proxies, len(hops))]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote_addr


class TrustedProxiesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.META["REMOTE_ADDR"] = client_address(
            forwarded_for=request.META.get("HTTP_X_FORWARDED_FOR"),
            remote_addr=request.META.get("REMOTE_ADDR", ""),
            proxies=settings.NUM_PROXIES,
        )
        return self.get_response(request)
