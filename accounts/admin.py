from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import UserChangeForm, UserCreationForm

from accounts.forms import RateLimitedAdminAuthenticationForm
from accounts.models import User
from learning_platform.admin_lists import LargeTableAdmin

# The admin's sign-in obeys the same failed-attempt limit as the API's (allauth).
admin.site.login_form = RateLimitedAdminAuthenticationForm


# The admin's classes and ModelForms are generic in django-stubs only: at run time they take no
# type argument.
class EmailUserCreationForm(UserCreationForm):  # type: ignore[type-arg]
    class Meta:
        model = User
        fields = ("email",)


class EmailUserChangeForm(UserChangeForm):  # type: ignore[type-arg]  # as above
    class Meta:
        model = User
        fields = "__all__"


@admin.register(User)
class UserAdmin(LargeTableAdmin, BaseUserAdmin):  # type: ignore[type-arg]  # as above
    form = EmailUserChangeForm
    add_form = EmailUserCreationForm
    ordering = ("email",)
    list_display = ("email", "display_name", "is_staff", "is_active", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("email", "display_name")
    search_help_text = "Part of an e-mail address or display name."
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Profile", {"fields": ("display_name", "time_zone")}),
        (
            "Preferences",
            {"fields": ("reply_notifications", "email_notifications", "show_on_leaderboard")},
        ),
        (
            "Permissions",
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)
