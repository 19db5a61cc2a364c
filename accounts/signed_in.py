"""The types of requests that only signed-in users reach: API views with IsAuthenticated, the
admin. For annotations only: Django and DRF make the requests."""

from django.http import HttpRequest
from rest_framework.request import Request

from accounts.models import User


class SignedInRequest(Request):
    user: User


class SignedInHttpRequest(HttpRequest):
    user: User
