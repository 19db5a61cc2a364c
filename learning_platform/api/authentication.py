from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from allauth.headless.contrib.rest_framework.authentication import XSessionTokenAuthentication
from django.contrib.sessions.backends.base import SessionBase
from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import AuthenticationFailed, PermissionDenied
from rest_framework.request import Request

from learning_platform.activity import record_session_activity
from learning_platform.api.csrf import CSRF_HINT, CsrfFailed

if TYPE_CHECKING:
    # Only for types: drf_spectacular.openapi imports the API settings, which import this.
    from drf_spectacular.openapi import AutoSchema


# The path (with its query) of the request whose session token is being looked up: allauth's
# token strategy is given the token alone, and reads ahead for that path
# (accounts.session_tokens).
authenticating_path: ContextVar[str | None] = ContextVar("authenticating_path", default=None)


# allauth ships no type information: its class is Any to mypy.
class SessionTokenAuthentication(XSessionTokenAuthentication):  # type: ignore[misc]
    """allauth's `app` client: the `X-Session-Token` header, one session per device.

    A token that is present but expired or ended answers 401 instead of silently
    falling back to an anonymous request, so a device knows to sign in again.
    """

    # allauth's public class refuses both (with its own messages); the token's lookup goes
    # through the configured strategy (HEADLESS_TOKEN_STRATEGY), as everywhere in allauth.
    allow_anonymous_users = False
    allow_invalid_session_tokens = False

    def authenticate(self, request: Request) -> tuple[Any, SessionBase] | None:
        reading = authenticating_path.set(request._request.get_full_path())
        try:
            authenticated = super().authenticate(request)
        except AuthenticationFailed:
            raise AuthenticationFailed("The session token is invalid or has expired.") from None
        finally:
            authenticating_path.reset(reading)
        if authenticated is None:
            return None  # no token: another authentication (or none) decides
        user, session = authenticated
        # allauth's own activity tracking is off (USERSESSIONS_TRACK_ACTIVITY): ours writes
        # once per interval (learning_platform/activity.py).
        record_session_activity(request._request, user=user, session=session)
        return user, session


class CsrfSessionAuthentication(SessionAuthentication):
    """allauth's `browser` client: the session cookie. A failed CSRF check answers 403 with
    `type: csrf_failed` (not a generic `permission_denied`), so the client knows to send the
    token."""

    def enforce_csrf(self, request: Request) -> None:
        try:
            super().enforce_csrf(request)
        except PermissionDenied as exc:
            raise CsrfFailed(f"{exc.detail} {CSRF_HINT}") from None


# drf-spectacular registers extensions in an untyped __init_subclass__.
class SessionTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "learning_platform.api.authentication.SessionTokenAuthentication"
    name = "sessionToken"

    def get_security_definition(self, auto_schema: "AutoSchema") -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "X-Session-Token",
            "description": "Session token from allauth's headless `app` client "
            "(`POST /_allauth/app/v1/auth/login`).",
        }


class CsrfSessionScheme(SessionScheme):  # type: ignore[no-untyped-call]  # as SessionTokenScheme
    target_class = "learning_platform.api.authentication.CsrfSessionAuthentication"
