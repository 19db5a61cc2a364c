from __future__ import annotations

from allauth.headless.internal import sessionkit
from allauth.headless.tokens.strategies.sessions import SessionTokenStrategy as BaseStrategy
from django.contrib.sessions.backends.base import SessionBase


class SessionTokenStrategy(BaseStrategy):
    """allauth's session tokens, looked up with one read instead of two.

    allauth asks the session store whether the key exists, then loads it: two cache round
    trips on every request of the `app` client. Loading alone tells the same: the store drops
    the key of a session it cannot find.
    """

    def lookup_session(self, session_token: str) -> SessionBase | None:
        store = sessionkit.session_store(session_token)
        store.keys()  # loads the session (cache first, then the database) and keeps it
        return store if store.session_key is not None else None
