from django.urls import path

from exercises import views

urlpatterns = [
    path(
        "exercises/<int:exercise_id>/", views.ExerciseDetailView.as_view(), name="exercise-detail"
    ),
    path(
        "exercises/<int:exercise_id>/submissions/",
        views.ExerciseSubmissionsView.as_view(),
        name="exercise-submissions",
    ),
    path(
        "submissions/<int:submission_id>/",
        views.SubmissionDetailView.as_view(),
        name="submission-detail",
    ),
    path("checks/<int:check_id>/answers", views.CheckAnswersView.as_view(), name="check-answers"),
    path("checks/<int:check_id>/reveal", views.CheckRevealView.as_view(), name="check-reveal"),
    path(
        "me/lessons/<slug:slug>/checks",
        views.LessonCheckStandingsView.as_view(),
        name="me-lesson-checks",
    ),
    path("me/lessons/started", views.StartedLessonsView.as_view(), name="me-lessons-started"),
    path("me/checks/sync", views.SyncAnswersView.as_view(), name="me-checks-sync"),
]
