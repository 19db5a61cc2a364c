from django.utils.cache import patch_cache_control, patch_vary_headers
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.serializers import (
    ProfileInputSerializer,
    ProfileOutputSerializer,
    SessionStateSerializer,
)
from accounts.signed_in import SignedInRequest
from learning_platform.api.conditional import VARY


class SessionStateView(APIView):
    """Whether the caller is signed in, answered 200 either way."""

    permission_classes = [AllowAny]

    @extend_schema(
        tags=["me"],
        responses=SessionStateSerializer,
        operation_id="session_retrieve",
        description="Whether the caller is signed in (session cookie or `X-Session-Token`) and, "
        "if so, their profile (the body of `GET /me/`). Unlike allauth's "
        "`GET /_allauth/browser/v1/auth/session`, a signed-out caller gets 200 "
        '`{"is_authenticated": false, "user": null}`, not 401, so an app can draw its top '
        "bar without an error in the browser's console. An expired `X-Session-Token` still "
        "answers 401. Never cached.",
    )
    def get(self, request: Request) -> Response:
        response = Response(selectors.session_state(user=request.user))
        patch_cache_control(response, private=True, no_store=True)
        patch_vary_headers(response, VARY)
        return response


@extend_schema(tags=["me"])
class MeView(APIView):
    """The signed-in learner's profile."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=ProfileOutputSerializer, operation_id="me_retrieve")
    def get(self, request: Request) -> Response:
        return Response(ProfileOutputSerializer(request.user).data)

    @extend_schema(
        request=ProfileInputSerializer,
        responses=ProfileOutputSerializer,
        operation_id="me_update",
    )
    def patch(self, request: SignedInRequest) -> Response:
        serializer = ProfileInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        user = services.update_profile(user=request.user, **serializer.validated_data)
        return Response(ProfileOutputSerializer(user).data)
