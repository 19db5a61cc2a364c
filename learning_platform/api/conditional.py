"""Conditional GETs: an ETag computed from the response body, and 304 for `If-None-Match`.

The tag hashes exactly what the client would receive, so any change that shows up in the
body (an edit in the admin, a newly published neighbour, the caller's own progress) changes
it, and nothing else does.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

VARY = ("Cookie", "X-Session-Token", "Authorization")


def etag_for(data: Any) -> str:
    body = JSONRenderer().render(data)
    return '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'


def conditional_response(request: Request, data: Any) -> Response:
    """200 with an ETag, or 304 when the client's `If-None-Match` already names it."""
    etag = etag_for(data)
    client_etags = parse_etags(request.headers.get("If-None-Match", ""))
    if etag in client_etags or "*" in client_etags or f"W/{etag}" in client_etags:
        response = Response(status=status.HTTP_304_NOT_MODIFIED)
    else:
        response = Response(data)
    response["ETag"] = etag
    # The body depends on who asks (drafts for staff, completion flags): private, revalidate.
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, VARY)
    return response
