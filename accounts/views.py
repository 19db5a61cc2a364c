from django.http import HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.serializers import (
    DeletionInputSerializer,
    DeletionOutputSerializer,
    DeletionTermsSerializer,
    ProfileInputSerializer,
    ProfileOutputSerializer,
    SessionStateSerializer,
)
from accounts.signed_in import SignedInRequest
from learning_platform.api.conditional import IF_NONE_MATCH, VARY, conditional_response


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

    @extend_schema(
        responses=ProfileOutputSerializer, operation_id="me_retrieve", parameters=[IF_NONE_MATCH]
    )
    def get(self, request: SignedInRequest) -> HttpResponse:
        return conditional_response(request, ProfileOutputSerializer(request.user).data)

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


@extend_schema(tags=["me"])
class NameInvitationView(APIView):
    """The invitation to choose a display name was shown: it is not shown again."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses=ProfileOutputSerializer,
        operation_id="me_name_invitation_create",
        description="Records that the signed-in learner was invited to choose a display name "
        "(`name_invited_at` in the profile), so the web app shows the invitation once across "
        "devices. Idempotent: the first time is kept. Answers the profile.",
    )
    def post(self, request: SignedInRequest) -> Response:
        user = services.record_name_invitation(user=request.user)
        return Response(ProfileOutputSerializer(user).data)


@extend_schema(tags=["me"])
class AccountDataView(APIView):
    """A copy of the learner's data, as a JSON file (GDPR article 20)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "application/json"): OpenApiTypes.OBJECT},
        operation_id="me_data_retrieve",
        description="Everything the platform holds about the signed-in learner, as a JSON file "
        "to download: `profile`, `email_addresses`, `progress` (stats and completed lessons), "
        "`xp_ledger`, `submissions`, `check_answers`, `checks` (where each stands), `review_cards`, `comments`, `reports`, `followed_lessons`, "
        "`notifications`, `league` (tier, whether they take part, and their own weeks: tier, XP, "
        "rank, tier after). Never cached.",
    )
    def get(self, request: SignedInRequest) -> Response:
        response = Response(selectors.account_data(user=request.user))
        response["Content-Disposition"] = 'attachment; filename="my-learning-platform-data.json"'
        patch_cache_control(response, private=True, no_store=True)
        return response


@extend_schema(tags=["me"])
class AccountDeletionView(APIView):
    """Ask for the account to be deleted after a grace period (GDPR article 17)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=DeletionTermsSerializer,
        operation_id="me_deletion_retrieve",
        description="What asking for the deletion means, to say before asking: `grace_days`, "
        "the days in which signing in cancels it.",
    )
    def get(self, request: SignedInRequest) -> Response:
        return Response(DeletionTermsSerializer(selectors.deletion_terms()).data)

    @extend_schema(
        request=DeletionInputSerializer,
        responses={202: DeletionOutputSerializer},
        operation_id="me_deletion_create",
        description="Schedules the signed-in learner's account for deletion after "
        "`ACCOUNT_DELETION_GRACE_DAYS` (7) days and signs out every session, this one too. "
        "Signing in before then cancels it. 400 when the password is not right.",
    )
    def post(self, request: SignedInRequest) -> Response:
        serializer = DeletionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request.user
        delete_after = services.request_account_deletion(
            user=user, password=serializer.validated_data["password"]
        )
        body = {"requested_at": user.deletion_requested_at, "delete_after": delete_after}
        return Response(DeletionOutputSerializer(body).data, status=202)
