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
    path("me/notifications/", views.NotificationListView.as_view(), name="notification-list"),
    path(
        "me/notifications/<int:pk>/read",
        views.NotificationReadView.as_view(),
        name="notification-read",
    ),
    path(
        "me/notifications/read-all",
        views.NotificationReadAllView.as_view(),
        name="notification-read-all",
    ),
    path("me/reports/", views.MyReportListView.as_view(), name="my-report-list"),
    path("me/reports/<int:pk>/", views.MyReportDetailView.as_view(), name="my-report-detail"),
    path("unsubscribe/<str:token>", views.UnsubscribeView.as_view(), name="community-unsubscribe"),
]
