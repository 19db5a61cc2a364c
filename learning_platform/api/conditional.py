"""Conditional GETs: an ETag computed from the response body, and 304 for `If-None-Match`.

The tag hashes exactly what the client would receive, so any change that shows up in the
body (an edit in the admin, a newly published neighbour, the caller's own progress) changes
it, and nothing else does.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.utils.cache import get_conditional_response
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from learning_platform.credentials import CREDENTIAL_HEADERS

VARY = ("Cookie", *CREDENTIAL_HEADERS)

# How conditional reads are documented in the schema (api/schema.py adds their 304).
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="An ETag from an earlier answer; a match answers 304 with no body.",
)


@dataclass(frozen=True)
class Page:
    """A body ready to answer with: its JSON, rendered once (and cached so), and its ETag."""

    json: bytes
    etag: str


def page(data: Any) -> Page:
    return rendered_page(JSONRenderer().render(data))


def rendered_page(body: bytes) -> Page:
    """A body already rendered to JSON (kept so in the cache), with its ETag."""
    return Page(json=body, etag='"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"')


def conditional_response(
    request: Request, body: Page | Any, *, public_max_age: int | None = None
) -> HttpResponse:
    """200 with an ETag, or 304 when the client's `If-None-Match` already names it.

    By default the answer is private and revalidated on every use. `public_max_age` is for
    bodies that are the same for every caller: any cache (a CDN, the browser) may keep them
    that many seconds, and they do not vary by who asks. A `Page` is sent as rendered; other
    data goes through DRF's content negotiation.
    """
    etag = body.etag if isinstance(body, Page) else page(body).etag
    response: HttpResponse
    if isinstance(body, Page):
        response = HttpResponse(body.json, content_type="application/json")
    else:
        response = Response(body)
    response["ETag"] = etag
    if public_max_age is not None:
        response["Cache-Control"] = f"public, max-age={public_max_age}"
    else:
        # The body depends on who asks (drafts for staff, completion flags): private, revalidate.
        response["Cache-Control"] = "private, no-cache"
        response["Vary"] = ", ".join(VARY)
    # Given a response, Django answers it or a 304 with its headers; `or` satisfies the stubs.
    return get_conditional_response(request, etag=etag, response=response) or response
