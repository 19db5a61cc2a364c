from typing import Any

from allauth.core import ratelimit
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError

from accounts.adapters import login_attempts_key

TOO_MANY_ATTEMPTS = "Too many failed sign-in attempts. Try again in a few minutes."


class RateLimitedAdminAuthenticationForm(AdminAuthenticationForm):
    """The admin's sign-in form under allauth's `login_failed` limit (ACCOUNT_RATE_LIMITS), the
    one the API's sign-in obeys: after too many failures for an address from one client (or
    from one client address at all) even the right password is refused there until the window
    has passed.

    allauth's `secure_admin_login` would send staff to allauth's own sign-in page, which this
    headless-only deployment does not serve; the same limit is applied here instead.
    """

    def clean(self) -> dict[str, Any]:
        key = login_attempts_key(self.request, self.cleaned_data.get("username") or "")
        if not ratelimit.consume(self.request, action="login_failed", key=key, dry_run=True):
            raise ValidationError(TOO_MANY_ATTEMPTS, code="rate_limited")
        try:
            cleaned = super().clean()
        except ValidationError:
            ratelimit.consume(self.request, action="login_failed", key=key)
            raise
        ratelimit.clear(self.request, action="login_failed", key=key)
        return cleaned
