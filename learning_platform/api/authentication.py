from allauth.headless.contrib.rest_framework.authentication import XSessionTokenAuthentication
from drf_spectacular.extensions import OpenApiAuthenticationExtension


class SessionTokenAuthentication(XSessionTokenAuthentication):
    """allauth's `app` client: the `X-Session-Token` header, one session per device.

    A token that is present but expired or ended answers 401 instead of silently
    falling back to an anonymous request, so a device knows to sign in again.
    """

    allow_invalid_session_tokens = False


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
