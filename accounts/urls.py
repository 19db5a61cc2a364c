from django.urls import path

from accounts.views import (
    AccountDataView,
    AccountDeletionView,
    MeView,
    NameInvitationView,
    SessionStateView,
)

urlpatterns = [
    path("me/", MeView.as_view(), name="me"),
    path("me/name-invitation", NameInvitationView.as_view(), name="me-name-invitation"),
    path("me/data", AccountDataView.as_view(), name="me-data"),
    path("me/deletion", AccountDeletionView.as_view(), name="me-deletion"),
    path("session", SessionStateView.as_view(), name="session"),
]
