from django.urls import path

from leagues import views

urlpatterns = [
    path("me/league", views.MyLeagueView.as_view(), name="me-league"),
    path(
        "me/league/participation",
        views.ParticipationView.as_view(),
        name="me-league-participation",
    ),
    path("me/league/result/seen", views.ResultSeenView.as_view(), name="me-league-result-seen"),
]
