"""Reads of the accounts app."""

from __future__ import annotations

from typing import Any

from accounts.models import Requester
from accounts.serializers import SessionStateSerializer


def session_state(*, user: Requester | None) -> dict[str, Any]:
    """GET /api/v1/session's body: whether `user` is signed in and, if so, their profile (the
    web pages embed the signed-out one)."""
    signed_in = user is not None and user.is_authenticated
    return SessionStateSerializer(
        {"is_authenticated": signed_in, "user": user if signed_in else None}
    ).data
