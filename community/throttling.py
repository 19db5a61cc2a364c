from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle
from rest_framework.views import APIView


class ReportAnonThrottle(AnonRateThrottle):
    """Signed-out issue reports: a strict rate per client address."""

    scope = "reports_anon"


class ReportUserThrottle(UserRateThrottle):
    """Signed-in issue reports: a rate per learner."""

    scope = "reports_user"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None  # the anonymous throttle applies instead
        return super().get_cache_key(request, view)
