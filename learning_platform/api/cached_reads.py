"""Cached page reads in one cache round trip: the session, the user and the page's versions.

A warm signed-in read needs the learner's session and user row (authentication) and the
versions of the page's cached bodies (`learning_platform.page_cache`). Authentication runs
first and does not know the page's keys, so each would cost its own round trip. A view with
this mixin names the version keys its GET reads (`read_ahead_keys`); before authenticating,
one `get_many` reads them together with the session and user keys of the request's app token
(when this process has seen the token before and the configured token strategy,
`HEADLESS_TOKEN_STRATEGY`, reads ahead: `SessionReadAhead`), and the rest of the request takes
them from there. Nothing is trusted more than before:
authentication still checks the session it reads, and a learner's keys carry their id, so a
guess that turned out wrong only means a second round trip, never another learner's data.
"""

from __future__ import annotations

from functools import cache
from typing import Protocol, runtime_checkable

from allauth.headless import app_settings as headless_settings
from django.http import HttpRequest
from rest_framework.request import Request

from learning_platform import page_cache
from learning_platform.api.authentication import SessionTokenAuthentication

READ_METHODS = ("GET", "HEAD")


@runtime_checkable
class SessionReadAhead(Protocol):
    """What a token strategy offers to read a token's session and user ahead (the project's,
    accounts.session_tokens.SessionTokenStrategy). Named by the settings, not imported: the
    kernel knows no app."""

    def prefetch_keys(self, session_token: str) -> tuple[list[str], str | None]:
        """The cache keys the lookup of `session_token` will read and whose the token most
        likely is; ([], None) when unknown."""
        ...

    def forget_read_ahead(self) -> None:
        """Drop what a read-ahead kept for the lookup that follows it."""
        ...


def _session_read_ahead() -> SessionReadAhead | None:
    strategy = headless_settings.TOKEN_STRATEGY
    return strategy if _reads_ahead(type(strategy)) else None


@cache
def _reads_ahead(strategy_class: type) -> bool:
    return issubclass(strategy_class, SessionReadAhead)  # a Protocol check is slow: once


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
        read_ahead = None
        if request.method in READ_METHODS and self.read_ahead_enabled():
            read_ahead = _session_read_ahead()
            keys, user_id = [], None
            token = request._request.headers.get("X-Session-Token")
            if (
                token
                and read_ahead is not None
                and any(
                    issubclass(authentication, SessionTokenAuthentication)
                    for authentication in self.authentication_classes
                )
            ):
                keys, user_id = read_ahead.prefetch_keys(token)
            page_cache.prefetch([*keys, *self.read_ahead_keys(user_id=user_id)])
        try:
            super().perform_authentication(request)
        finally:
            if read_ahead is not None:
                read_ahead.forget_read_ahead()
