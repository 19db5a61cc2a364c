"""Authentication backends whose per-request user lookup reads through the cache.

Every signed-in request loads its user by id (Django's `get_user`), a database query that
was the largest remaining cost of hot reads such as /me/progress. The user row is cached for
a few minutes and dropped whenever the user is saved or deleted (accounts.apps connects the
signals), so a password change, a deactivation or a new display name shows on the next
request. Django still checks the session's auth hash against the cached user's password hash.
"""

from __future__ import annotations

import time
from contextvars import ContextVar

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db import transaction

USER_CACHE_TIMEOUT = 300


def user_cache_key(user_id) -> str:
    return f"auth-user:{user_id}"


# A user row the session-token lookup read from the cache in the same round trip as the
# session (accounts/session_tokens.py), for the get_user() that follows it: (when, user).
_offered: ContextVar[tuple[float, object] | None] = ContextVar("offered_user", default=None)
OFFER_LIFETIME = 1.0  # seconds: the lookup and the get_user() run back to back


def offer_cached_user(user) -> None:
    _offered.set((time.monotonic(), user))


def _take_offered_user(user_id):
    offered = _offered.get()
    if offered is None:
        return None
    _offered.set(None)
    offered_at, user = offered
    if time.monotonic() - offered_at > OFFER_LIFETIME or str(user.pk) != str(user_id):
        return None
    return user


def forget_cached_user(user_id) -> None:
    """Drop the cached row now and again after commit (a reader in between may re-cache it)."""
    cache.delete(user_cache_key(user_id))
    transaction.on_commit(lambda: cache.delete(user_cache_key(user_id)))


class CachedUserMixin:
    def get_user(self, user_id):
        key = user_cache_key(user_id)
        user = _take_offered_user(user_id) or cache.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                cache.set(key, user, USER_CACHE_TIMEOUT)
        return user if user is not None and self.user_can_authenticate(user) else None


class CachedModelBackend(CachedUserMixin, ModelBackend):
    pass


class AuthenticationBackend(CachedUserMixin, AllauthBackend):
    """allauth's backend (e-mail sign-in), with the cached per-request lookup."""
