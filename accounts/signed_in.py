"""The type of a request that only signed-in users reach (a view with IsAuthenticated)."""

from rest_framework.request import Request

from accounts.models import User


class SignedInRequest(Request):
    """For annotations only: DRF makes the request, and its permission check leaves only a
    signed-in user."""

    user: User
