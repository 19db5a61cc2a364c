"""Content negotiation with a fast path for what clients send nearly always.

DRF parses the `Accept` header and matches it against every renderer on every request,
even when the answer is the JSON bytes of a cached body. With no format override and an
`Accept` of `*/*`, `application/json` or none, DRF's answer is known without parsing: the
first renderer (for `application/json`, when it is JSON). Anything else is negotiated as before.
"""

from __future__ import annotations

from collections.abc import Iterable

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

_OBVIOUS = ("*/*", "application/json")


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        accept = request.META.get("HTTP_ACCEPT", "*/*")
        override = self.settings.URL_FORMAT_OVERRIDE
        first = next(iter(renderers), None)
        if (
            accept in _OBVIOUS
            and first is not None
            and not format_suffix
            and not (override and override in request.query_params)
            and (accept == "*/*" or first.media_type == accept)
        ):
            return first, first.media_type
        selected: tuple[BaseRenderer, str] = super().select_renderer(
            request, renderers, format_suffix
        )
        return selected
