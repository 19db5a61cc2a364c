"""allauth's app session tokens, looked up with one cache round trip for session and user.

allauth asks the session store whether the key exists, then loads it, then loads the user:
three cache round trips on every request of the `app` client, the largest part of a
signed-in read. Here a session is loaded once (the store drops the key of a session it
cannot find), and once this process has seen a token, it knows the user the session belongs
to (a session never changes hands), so the session and that user's cached row come in one
`get_many`; a page view that reads ahead (`learning_platform.api.cached_reads`) adds its own
keys to that round trip (the strategy's `prefetch_keys`: cached_reads finds it on the strategy
the settings name, the kernel does not import accounts). Everything else is unchanged: the
session must still be in the store (a signed-out or expired token is refused on the next
request), and Django still checks the user's session hash and `is_active` against the row.
"""

from __future__ import annotations

from contextvars import ContextVar

from allauth.headless.internal import sessionkit
from allauth.headless.tokens.strategies.sessions import SessionTokenStrategy as BaseStrategy
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import DEFAULT_CACHE_ALIAS

from accounts import backends
from learning_platform import page_cache

# token -> id of the user its session belongs to, as this process last saw it. Bounded:
# cleared whenever it grows past _MAX_REMEMBERED.
_session_users: dict[str, str] = {}
_MAX_REMEMBERED = 20_000
# The (token, new session store) a read-ahead made for the lookup that follows it.
_read_ahead_store: ContextVar[tuple[str, SessionBase] | None] = ContextVar(
    "read_ahead_session_store", default=None
)


def prefetch_keys(session_token: str) -> tuple[list[str], str | None]:
    """The cache keys the lookup of `session_token` will read (its session, its user's row)
    and that user's id, when this process knows whose the token is; else ([], None). The id
    is a guess until the session is read: only ever used to read ahead."""
    user_id = _session_users.get(session_token)
    if user_id is None or settings.SESSION_CACHE_ALIAS != DEFAULT_CACHE_ALIAS:
        return [], None
    store = sessionkit.session_store(session_token)
    if not store.session_key:
        return [], None
    _read_ahead_store.set((session_token, store))  # the lookup that follows reuses it
    return [store.cache_key, backends.user_cache_key(user_id)], user_id


def forget_read_ahead() -> None:
    _read_ahead_store.set(None)


def _store_for(session_token: str) -> SessionBase:
    read_ahead = _read_ahead_store.get()
    if read_ahead is not None:
        _read_ahead_store.set(None)
        if read_ahead[0] == session_token:
            return read_ahead[1]
    return sessionkit.session_store(session_token)


class SessionTokenStrategy(BaseStrategy):
    """allauth's session tokens, read with one round trip; also a
    learning_platform.api.cached_reads.SessionReadAhead."""

    def prefetch_keys(self, session_token: str) -> tuple[list[str], str | None]:
        return prefetch_keys(session_token)

    def forget_read_ahead(self) -> None:
        forget_read_ahead()

    def lookup_session(self, session_token: str) -> SessionBase | None:
        store = _store_for(session_token)
        user_id = _session_users.get(session_token)
        # The user row lives in the default cache: only with sessions there too.
        same_cache = settings.SESSION_CACHE_ALIAS == DEFAULT_CACHE_ALIAS
        if user_id is not None and store.session_key and same_cache:
            user_key = backends.user_cache_key(user_id)
            try:
                # Read ahead with the page's own keys when the view did (one round trip).
                found = page_cache.get_many([store.cache_key, user_key])
            except Exception:
                found = {}
            data = found.get(store.cache_key)
            if data is not None and data.get(SESSION_KEY) == user_id:
                store._session_cache = data  # what the store's own load() would have read
                if user_key in found:
                    backends.offer_cached_user(found[user_key])
                return store
        store.keys()  # loads the session (cache first, then the database) and keeps it
        if store.session_key is None:
            return None
        user_id = store.get(SESSION_KEY)
        if user_id is not None:
            if len(_session_users) >= _MAX_REMEMBERED:
                _session_users.clear()
            _session_users[session_token] = user_id
        return store
