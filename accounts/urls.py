from django.urls import path

from accounts.views import MeView, SessionStateView

urlpatterns = [
    path("me/", MeView.as_view(), name="me"),
    path("session", SessionStateView.as_view(), name="session"),
]
