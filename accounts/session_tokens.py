"""allauth's session tokens, read in one cache round trip.

allauth's strategy asks the session store whether the token's session exists, then loads it,
and Django then loads the session's user: three cache round trips on every request of the
`app` client. A token here names its user as well as its session (`<user id>.<session key>`),
so the session and the cached user are fetched together (`RedisCache.read_ahead`), with what
the same user's request for the same path read from the cache the last time (a page's
versions and value): a warm signed-in read makes one round trip. The user id is only a hint
for that fetch: who is signed in is still what the session says.
"""

from __future__ import annotations

from importlib import import_module

from allauth.headless.tokens.strategies.sessions import SessionTokenStrategy as AllauthStrategy
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import caches
from django.http import HttpRequest

from accounts.backends import user_cache_key
from learning_platform.api.authentication import authenticating_path


class SessionTokenStrategy(AllauthStrategy):  # type: ignore[misc]  # allauth has no types
    def create_session_token(self, request: HttpRequest) -> str:
        session_key: str = super().create_session_token(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return f"{user.pk}.{session_key}"
        return session_key

    def lookup_session(self, session_token: str) -> SessionBase | None:
        user_id, _, session_key = session_token.rpartition(".")
        store: SessionBase = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
        cache = caches[settings.SESSION_CACHE_ALIAS]
        if user_id and hasattr(cache, "read_ahead") and hasattr(store, "cache_key"):
            # What this user's request for this path read last time comes in the same trip.
            path = authenticating_path.get()
            then = f"{user_id} {path}" if path else None
            cache.read_ahead([store.cache_key, user_cache_key(user_id)], then=then)
        store.get(SESSION_KEY)  # loads the session, or forgets the key of one that is gone
        return store if store.session_key else None
