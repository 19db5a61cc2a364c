from allauth.core import ratelimit
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError

TOO_MANY_ATTEMPTS = "Too many failed sign-in attempts. Try again in a few minutes."


class RateLimitedAdminAuthenticationForm(AdminAuthenticationForm):
    """The admin's sign-in form under allauth's `login_failed` limit (ACCOUNT_RATE_LIMITS), the
    one the API's sign-in obeys: after too many failures for an address (or from one client
    address) even the right password is refused until the window has passed.

    allauth's `secure_admin_login` would send staff to allauth's own sign-in page, which this
    headless-only deployment does not serve; the same limit is applied here instead.
    """

    def clean(self):
        email = (self.cleaned_data.get("username") or "").strip().lower()
        if not ratelimit.consume(self.request, action="login_failed", key=email, dry_run=True):
            raise ValidationError(TOO_MANY_ATTEMPTS, code="rate_limited")
        try:
            cleaned = super().clean()
        except ValidationError:
            ratelimit.consume(self.request, action="login_failed", key=email)
            raise
        ratelimit.clear(self.request, action="login_failed", key=email)
        return cleaned
