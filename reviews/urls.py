from django.urls import path

from reviews import views

urlpatterns = [
    path("me/reviews", views.ReviewQueueView.as_view(), name="me-reviews"),
    path("me/reviews/summary", views.ReviewSummaryView.as_view(), name="me-reviews-summary"),
    path("me/reviews/sync", views.SyncReviewsView.as_view(), name="me-reviews-sync"),
    path(
        "me/reviews/<int:check_id>/answers",
        views.ReviewAnswersView.as_view(),
        name="me-review-answers",
    ),
]
