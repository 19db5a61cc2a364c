"""Recording when each signed-in session was last seen, at most once per interval.

allauth's own tracking (USERSESSIONS_TRACK_ACTIVITY) writes and commits on every signed-in
request, which made a hot read like /me/progress several times slower. The session list a
learner sees ("last seen ...") needs minutes of precision, not milliseconds, so one write per
session per SESSION_ACTIVITY_INTERVAL seconds is recorded instead; a cache key marks the
window (per process in embedded mode, shared through Redis otherwise).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

# Sessions this process recorded, with when their window ends: spares the shared cache a
# round trip on most requests. Bounded: cleared whenever it grows past _MAX_REMEMBERED.
_recorded_until: dict[str, float] = {}
_MAX_REMEMBERED = 10_000


def record_session_activity(
    request: HttpRequest,
    *,
    user: AbstractBaseUser | AnonymousUser | None,
    session: SessionBase | None,
) -> None:
    if user is None or not user.is_authenticated or session is None or not session.session_key:
        return
    now = time.monotonic()
    if _recorded_until.get(session.session_key, 0) > now:
        return  # this process recorded it in this window
    interval = settings.SESSION_ACTIVITY_INTERVAL
    if len(_recorded_until) >= _MAX_REMEMBERED:
        _recorded_until.clear()
    _recorded_until[session.session_key] = now + interval
    marker = f"session-seen:{session.session_key}"
    if not cache.add(marker, 1, timeout=interval):
        return  # another process recorded it in this window
    from allauth.usersessions.models import UserSession

    UserSession.objects.create_from_request(request, user=user, session=session)


class SessionActivityMiddleware:
    """Records activity of cookie (browser) sessions; app tokens are recorded by the DRF
    authentication class."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        # Only a request that carries a session cookie can be a signed-in browser session;
        # checking first avoids loading a session for every anonymous request.
        if session is not None and request.COOKIES.get(settings.SESSION_COOKIE_NAME):
            record_session_activity(request, user=request.user, session=session)
        return self.get_response(request)
