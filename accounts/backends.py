"""Authentication backends whose per-request user lookup reads through the cache.

Every signed-in request loads its user by id (Django's `get_user`), a database query that
was the largest remaining cost of hot reads such as /me/progress. The user row is cached for
a few minutes and dropped whenever the user is saved or deleted (accounts.apps connects the
signals), so a password change, a deactivation or a new display name shows on the next
request. Django still checks the session's auth hash against the cached user's password hash.
"""

from __future__ import annotations

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db import transaction

USER_CACHE_TIMEOUT = 300


def user_cache_key(user_id: object) -> str:
    return f"auth-user:{user_id}"


def forget_cached_users(user_ids: list[Any]) -> None:
    """Drop the cached rows now and again after commit (a reader in between may re-cache
    them), in one cache round trip each time."""
    if not user_ids:
        return
    keys = [user_cache_key(user_id) for user_id in user_ids]
    cache.delete_many(keys)
    transaction.on_commit(lambda: cache.delete_many(keys))


class CachedUserLookup(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        key = user_cache_key(user_id)
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                cache.set(key, user, USER_CACHE_TIMEOUT)
        return user if user is not None and self.user_can_authenticate(user) else None


class CachedModelBackend(CachedUserLookup):
    """Loads the user of the sessions that name this backend; signs nobody in.

    As Django's ModelBackend it also checked every sign-in's password (the user model's
    USERNAME_FIELD is the e-mail), so a wrong password was hashed twice, here and again in
    AuthenticationBackend: twice as slow as a right one. It stays listed, by this path, for
    the sessions it signed in."""

    def authenticate(
        self, request: Any, username: Any = None, password: Any = None, **kwargs: Any
    ) -> None:
        return None


class AuthenticationBackend(CachedUserLookup, AllauthBackend):  # type: ignore[misc]  # allauth: no types
    """allauth's backend (e-mail sign-in), with the cached per-request lookup.

    Signs in by an account's own address or a verified secondary one only: allauth also
    accepts an address attached unverified, which anyone can attach (issue 25)."""

    def _authenticate_by_email(self, email: str, password: str) -> Any:
        from allauth.account.utils import filter_users_by_email

        from accounts.services import may_sign_in_with

        if not email:
            return None
        for user in filter_users_by_email(email, prefer_verified=True):
            if may_sign_in_with(user=user, email=email) and self._check_password(user, password):
                return user
        return None
