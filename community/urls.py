from django.urls import path

from community import views

urlpatterns = [
    path(
        "lessons/<slug:slug>/comments/",
        views.LessonCommentsView.as_view(),
        name="lesson-comments",
    ),
    path("comments/<int:pk>/", views.CommentDetailView.as_view(), name="comment-detail"),
    path("comments/<int:pk>/replies/", views.CommentRepliesView.as_view(), name="comment-replies"),
    path(
        "lessons/<slug:slug>/subscription",
        views.LessonSubscriptionView.as_view(),
        name="lesson-subscription",
    ),
    path("lessons/<slug:slug>/reports/", views.LessonReportsView.as_view(), name="lesson-reports"),
    path("me/reports/", views.MyReportListView.as_view(), name="my-report-list"),
    path("me/reports/<int:pk>/", views.MyReportDetailView.as_view(), name="my-report-detail"),
]
