"""What a failed CSRF check answers. Imports nothing of DRF's views, so the authentication
classes (loaded while DRF's views are) can use it."""

from rest_framework import exceptions

CSRF_HINT = (
    "Send the value of the csrftoken cookie in the X-CSRFToken header "
    "(GET /_allauth/browser/v1/config sets the cookie)."
)


class CsrfFailed(exceptions.PermissionDenied):
    default_detail = "CSRF verification failed."
    default_code = "csrf_failed"
