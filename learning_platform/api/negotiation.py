"""Content negotiation with a fast path for what clients send nearly always.

DRF parses the `Accept` header and matches it against every renderer on every request,
even when the answer is the JSON bytes of a cached body. With no format override and an
`Accept` of `*/*`, `application/json` or none, DRF's answer is known without parsing: the
first renderer (for `application/json`, when it is JSON). Anything else is negotiated as before.
"""

from __future__ import annotations

from rest_framework.negotiation import DefaultContentNegotiation

_OBVIOUS = ("*/*", "application/json")


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        accept = request.META.get("HTTP_ACCEPT", "*/*")
        override = self.settings.URL_FORMAT_OVERRIDE
        if (
            accept in _OBVIOUS
            and renderers
            and not format_suffix
            and not (override and override in request.query_params)
            and (accept == "*/*" or renderers[0].media_type == accept)
        ):
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)
