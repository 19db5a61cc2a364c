"""Password-reset keys bound to the address they were sent to.

allauth's keys name an account, not an address: a reset sent to any of an account's addresses
gives the same kind of key. To know which address a completed reset proved (and so whose
account it is now: accounts.services.claim_account_by_reset), the e-mailed key carries the
address and a MAC of it (`bind_to_address`), and the token generator allauth is configured
with (ACCOUNT_PASSWORD_RESET_TOKEN_GENERATOR) accepts only such keys, for an address the
account may still be reached by.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

_SALT = "accounts.reset_keys.address"


def bind_to_address(token: str, *, user_pk: object, email: str) -> str:
    """`token` (allauth's, for the account `user_pk`) extended with the address it is sent to."""
    payload = urlsafe_base64_encode(email.lower().encode())
    return f"{token}-{payload}.{_mac(user_pk, token, payload)}"


def _mac(user_pk: object, token: str, payload: str) -> str:
    return salted_hmac(_SALT, f"{user_pk}-{token}-{payload}", algorithm="sha256").hexdigest()[:32]


def _address_of(user_pk: object, key: str) -> tuple[str, str] | None:
    """(the token, the address) of a key made by bind_to_address; None for any other key."""
    # A token is "<timestamp>-<hash>" (base 36, hex): neither part holds a "-".
    parts = key.split("-", 2)
    if len(parts) != 3:
        return None
    token, (payload, _, mac) = "-".join(parts[:2]), parts[2].partition(".")
    if not constant_time_compare(mac, _mac(user_pk, token, payload)):
        return None
    try:
        email = urlsafe_base64_decode(payload).decode()
    except ValueError:  # a bad encoding, or not UTF-8
        return None
    return token, email


class AddressBoundTokenGenerator(PasswordResetTokenGenerator):
    """Django's reset tokens (one use: the password is in the hash), valid only as the keys
    `bind_to_address` makes and only while the address may still reach the account (its own
    address, or a secondary one it verified). A key that checks out names its address on the
    user object (`reset_through_email`) for the reset's completion."""

    def check_token(self, user: Any, token: str | None) -> bool:
        # accounts.services needs the app registry, and allauth imports this module while it
        # builds its forms.
        from accounts.services import may_sign_in_with

        if user is None or not token:
            return False
        bound = _address_of(user.pk, token)
        if bound is None:
            return False
        token, email = bound
        if not may_sign_in_with(user=user, email=email) or not super().check_token(user, token):
            return False
        user.reset_through_email = email
        return True
