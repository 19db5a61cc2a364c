"""allauth's session tokens, with the session read once per request.

allauth's strategy asks the session store whether the token's session exists, then loads it:
two cache round trips on every request of the `app` client. Loading it is enough to know: the
store forgets the key of a session it cannot find or that expired.
"""

from __future__ import annotations

from importlib import import_module

from allauth.headless.tokens.strategies.sessions import SessionTokenStrategy as AllauthStrategy
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase


class SessionTokenStrategy(AllauthStrategy):
    def lookup_session(self, session_token: str) -> SessionBase | None:
        store: SessionBase = import_module(settings.SESSION_ENGINE).SessionStore(session_token)
        store.get(SESSION_KEY)  # loads the session, or forgets the key of one that is gone
        return store if store.session_key else None
