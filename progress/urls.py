from django.urls import path

from progress import views

urlpatterns = [
    path("levels/", views.LevelCurveView.as_view(), name="level-list"),
    path(
        "lessons/<slug:slug>/complete", views.CompleteLessonView.as_view(), name="lesson-complete"
    ),
    path("me/progress", views.MyProgressView.as_view(), name="me-progress"),
    path("me/daily-goal", views.DailyGoalView.as_view(), name="me-daily-goal"),
    path("me/calendar", views.CalendarView.as_view(), name="me-calendar"),
    path("me/progress/sync", views.SyncProgressView.as_view(), name="me-progress-sync"),
    path("leaderboard", views.LeaderboardView.as_view(), name="leaderboard"),
]
