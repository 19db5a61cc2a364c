from allauth.headless.contrib.rest_framework.authentication import XSessionTokenAuthentication
from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import AuthenticationFailed, PermissionDenied

from learning_platform.activity import record_session_activity
from learning_platform.api.csrf import CSRF_HINT, CsrfFailed


class SessionTokenAuthentication(XSessionTokenAuthentication):
    """allauth's `app` client: the `X-Session-Token` header, one session per device.

    A token that is present but expired or ended answers 401 instead of silently
    falling back to an anonymous request, so a device knows to sign in again.
    """

    # allauth's public class refuses both (with its own messages); the token's lookup goes
    # through the configured strategy (HEADLESS_TOKEN_STRATEGY), as everywhere in allauth.
    allow_anonymous_users = False
    allow_invalid_session_tokens = False

    def authenticate(self, request):
        try:
            authenticated = super().authenticate(request)
        except AuthenticationFailed:
            raise AuthenticationFailed("The session token is invalid or has expired.") from None
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

    def enforce_csrf(self, request):
        try:
            super().enforce_csrf(request)
        except PermissionDenied as exc:
            raise CsrfFailed(f"{exc.detail} {CSRF_HINT}") from None


class SessionTokenScheme(OpenApiAuthenticationExtension):
    target_class = "learning_platform.api.authentication.SessionTokenAuthentication"
    name = "sessionToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "X-Session-Token",
            "description": "Session token from allauth's headless `app` client "
            "(`POST /_allauth/app/v1/auth/login`).",
        }


class CsrfSessionScheme(SessionScheme):
    target_class = "learning_platform.api.authentication.CsrfSessionAuthentication"
