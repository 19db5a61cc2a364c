"""HTTP endpoints of the notifications app: thin views over services and selectors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.validators import RegexValidator
from django.db.models import QuerySet
from django.template.loader import render_to_string
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, renderers, serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.parsers import FormParser, JSONParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.signed_in import SignedInRequest
from learning_platform.api.query import QuerySerializer
from notifications import push, selectors, services
from notifications.models import Notification
from notifications.pagination import NotificationPagination
from notifications.serializers import (
    NotificationSerializer,
    ReadAllSerializer,
    UnsubscribeSerializer,
)


class NotificationQuerySerializer(QuerySerializer):
    unread = serializers.BooleanField(default=False, help_text="Only unread notifications.")


@extend_schema_view(
    get=extend_schema(
        operation_id="notifications_list",
        parameters=[NotificationQuerySerializer],
    )
)
class NotificationListView(generics.ListAPIView[Notification]):
    """The learner's notifications, newest first, with `unread_count` in the page."""

    permission_classes = [IsAuthenticated]
    request: SignedInRequest
    serializer_class = NotificationSerializer
    pagination_class = NotificationPagination

    def get_queryset(self) -> QuerySet[Notification]:
        query = NotificationQuerySerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        unread_only = query.validated_data["unread"]
        return selectors.notifications_for(user=self.request.user, unread_only=unread_only)


class NotificationReadView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: NotificationSerializer},
        description="Mark one of your notifications read. Anyone else's: 404.",
    )
    def post(self, request: SignedInRequest, pk: int) -> Response:
        notification = services.mark_notification_read(user=request.user, notification_id=pk)
        return Response(NotificationSerializer(notification).data)


class NotificationReadAllView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: ReadAllSerializer})
    def post(self, request: SignedInRequest) -> Response:
        changed = services.mark_all_notifications_read(user=request.user)
        return Response(ReadAllSerializer({"marked_read": changed, "unread_count": 0}).data)


# --- Web Push -----------------------------------------------------------------------------


class PushKeySerializer(serializers.Serializer[Any]):
    public_key = serializers.CharField(
        allow_null=True,
        help_text="The VAPID public key to subscribe with (PushManager.subscribe's "
        "applicationServerKey, base64url); null when this server sends no pushes.",
    )


class PushKeysSerializer(serializers.Serializer[Any]):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


# The server posts to it, so only a push service over TLS: a host, an optional port and a
# printable ASCII path, as every browser's push service gives. The schema carries the same
# pattern, so a client knows what is accepted before it asks.
PUSH_ENDPOINT_PATTERN = r"^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[!-~]*)?$"


class PushSubscriptionSerializer(serializers.Serializer[Any]):
    """What PushSubscription.toJSON() gives (expirationTime is ignored)."""

    endpoint = serializers.CharField(
        max_length=1000,
        validators=[
            RegexValidator(PUSH_ENDPOINT_PATTERN, message="A push endpoint is an https:// URL.")
        ],
    )
    keys = PushKeysSerializer()


class PushEndpointQuerySerializer(QuerySerializer):
    # Forgetting is harmless for any string: one that was never saved matches nothing. Taken
    # as given (untrimmed), so a string the schema allows never becomes a blank one.
    endpoint = serializers.CharField(max_length=1000, trim_whitespace=False)


class PushKeyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: PushKeySerializer})
    def get(self, request: Request) -> Response:
        return Response(PushKeySerializer({"public_key": push.public_key()}).data)


class PushSubscriptionView(APIView):
    """This browser's push subscription for the signed-in learner (the daily reminders)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=PushSubscriptionSerializer,
        responses={
            200: PushSubscriptionSerializer,
            201: PushSubscriptionSerializer,
            409: OpenApiResponse(
                description="`push_not_configured`: this server has no VAPID key."
            ),
        },
        description="Keep this browser's subscription (201 new, 200 known: its keys are "
        "updated, and a browser signed in as someone else moves to you).",
    )
    def put(self, request: SignedInRequest) -> Response:
        body = PushSubscriptionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        created = push.save_subscription(
            user_id=request.user.pk,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
        )
        return Response(body.data, status=201 if created else 200)

    @extend_schema(
        parameters=[PushEndpointQuerySerializer],
        responses={204: None},
        description="Forget this browser's subscription (also when there was none).",
    )
    def delete(self, request: SignedInRequest) -> Response:
        query = PushEndpointQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        push.remove_subscription(user_id=request.user.pk, endpoint=query.validated_data["endpoint"])
        return Response(status=204)


# --- Unsubscribe ----------------------------------------------------------------------------


class UnsubscribePageRenderer(renderers.BaseRenderer):
    """A tiny page for people who open the link in a browser: a button that POSTs."""

    media_type = "text/html"
    format = "html"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> str:
        request = (renderer_context or {}).get("request")
        return render_to_string(
            "notifications/unsubscribe.html",
            {
                "data": data or {},
                "action": request.get_full_path() if request else "",
                # Not a dead end: the way back to the app, and to where e-mails are set.
                "app_url": services.absolute_frontend_url("/"),
                "settings_url": services.absolute_frontend_url("/settings"),
            },
        )


class UnsubscribeView(APIView):
    """One-click unsubscribe from an e-mail: the signed token is the only credential.

    GET describes what the link does (a confirmation; mail scanners prefetch links, so GET
    changes nothing). POST does it: the RFC 8058 `List-Unsubscribe-Post` one-click request,
    or the button of the page a browser gets.
    """

    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [AllowAny]
    parser_classes = [JSONParser, FormParser]
    renderer_classes = [renderers.JSONRenderer, UnsubscribePageRenderer]

    @extend_schema(responses={200: UnsubscribeSerializer})
    def get(self, request: Request, token: str) -> Response:
        scope = services.unsubscribe_scope(token=token)
        return Response(UnsubscribeSerializer({**scope, "done": False}).data)

    @extend_schema(
        request=None,
        responses={200: UnsubscribeSerializer},
        description="Unsubscribe (idempotent). No sign-in needed: the token is signed.",
    )
    def post(self, request: Request, token: str) -> Response:
        result = services.unsubscribe(token=token)
        return Response(UnsubscribeSerializer({**result, "done": True}).data)
