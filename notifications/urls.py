from django.urls import path

from notifications import views

urlpatterns = [
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
    path("push/key", views.PushKeyView.as_view(), name="push-key"),
    path(
        "me/push-subscription",
        views.PushSubscriptionView.as_view(),
        name="push-subscription",
    ),
    # The URL name predates this app; links in e-mails already sent use the path.
    path(
        "unsubscribe/<str:token>",
        views.UnsubscribeView.as_view(),
        name="community-unsubscribe",
    ),
]
