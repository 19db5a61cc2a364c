"""What allauth's sign-up form adds to its checks (ACCOUNT_SIGNUP_FORM_CLASS: allauth builds its
sign-up form, the headless one included, on this class)."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from django import forms

from accounts import services


class SignupForm(forms.Form):
    def clean(self) -> dict[str, Any]:
        """An address another account was started with and never confirmed answers how to
        claim it (`email_unconfirmed`) instead of a bare `email_taken`.

        The address is not handed to the newcomer: nobody has proved it yet, and anyone could
        then strip a learner who has not confirmed their address of their account. A reset
        through the address proves it and makes that account the newcomer's
        (accounts.services.claim_account_by_reset)."""
        cleaned: dict[str, Any] = super().clean() or {}
        email = str(self.data.get("email") or "").strip()
        if self.has_error("email", "email_taken") and services.is_unconfirmed_signup_address(
            email=email
        ):
            self.errors.pop("email")
            self.add_error("email", get_adapter().validation_error("email_unconfirmed"))
        return cleaned

    def signup(self, request: Any, user: Any) -> None:
        """Nothing to add to the new account (allauth asks every sign-up form for this)."""
