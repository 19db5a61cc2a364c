"""Cached page reads in one cache round trip: the session, the user and the page's versions.

A warm signed-in read needs the learner's session and user row (authentication) and the
versions of the page's cached bodies (`learning_platform.page_cache`). Authentication runs
first and does not know the page's keys, so each would cost its own round trip. A view with
this mixin names the version keys its GET reads (`read_ahead_keys`); before authenticating,
one `get_many` reads them together with the session and user keys of the request's app token
(when this process has seen the token before, `accounts.session_tokens.prefetch_keys`), and
the rest of the request takes them from there. Nothing is trusted more than before:
authentication still checks the session it reads, and a learner's keys carry their id, so a
guess that turned out wrong only means a second round trip, never another learner's data.
"""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.request import Request

from accounts import session_tokens
from learning_platform import page_cache
from learning_platform.api.authentication import SessionTokenAuthentication

READ_METHODS = ("GET", "HEAD")


class ReadAheadMixin:
    """For APIViews whose GET answers from the page cache."""

    def read_ahead_keys(self, *, user_id: str | None) -> list[str]:
        """The cache keys this GET reads; `user_id` is whose the app token most likely is."""
        return []

    def read_ahead_enabled(self) -> bool:
        return page_cache.enabled()

    def dispatch(self, request: HttpRequest, *args, **kwargs):
        if request.method not in READ_METHODS or not self.read_ahead_enabled():
            return super().dispatch(request, *args, **kwargs)
        with page_cache.request_scope():
            return super().dispatch(request, *args, **kwargs)

    def perform_authentication(self, request: Request) -> None:
        if request.method in READ_METHODS and self.read_ahead_enabled():
            keys, user_id = [], None
            token = request._request.headers.get("X-Session-Token")
            if token and any(
                issubclass(authentication, SessionTokenAuthentication)
                for authentication in self.authentication_classes
            ):
                keys, user_id = session_tokens.prefetch_keys(token)
            page_cache.prefetch([*keys, *self.read_ahead_keys(user_id=user_id)])
        try:
            super().perform_authentication(request)
        finally:
            session_tokens.forget_read_ahead()
