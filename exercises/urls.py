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
]
