"""Answers of the API and of the sign-in API are private unless they say otherwise.

A view that answers the same to everyone says so (`Cache-Control: public`, as the level curve
does through `conditional_response(public_max_age=...)`) and is left alone. Every other answer,
errors included, gets `private` (and `no-store` when the view said nothing about caching) and
varies by the credentials, so no shared cache in front (a CDN, a corporate proxy) keeps one
learner's `/me/`, progress, notifications or e-mail addresses for another (issue 41). Browsers
still keep what a view allows them (`private, no-cache` with an ETag: revalidated).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers

from learning_platform.api.conditional import VARY

# The URLconf's API (api/v1/, its schema and docs) and allauth's headless API.
API_PREFIXES = ("/api/", "/_allauth/")


def _directives(response: HttpResponseBase) -> set[str]:
    header = response.get("Cache-Control", "")
    return {part.strip().split("=", 1)[0].lower() for part in header.split(",") if part.strip()}


class PrivateAnswersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if not request.path.startswith(API_PREFIXES):
            return response
        directives = _directives(response)
        if "public" in directives:
            return response
        if directives:
            patch_cache_control(response, private=True)
        else:
            patch_cache_control(response, private=True, no_store=True)
        patch_vary_headers(response, VARY)
        return response
