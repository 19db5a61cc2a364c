from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.serializers import ProfileInputSerializer, ProfileOutputSerializer


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
    def patch(self, request: Request) -> Response:
        serializer = ProfileInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        user = services.update_profile(user=request.user, **serializer.validated_data)
        return Response(ProfileOutputSerializer(user).data)
