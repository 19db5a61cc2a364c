from django.urls import path

from achievements import views

urlpatterns = [
    path("achievements/", views.AchievementListView.as_view(), name="achievement-list"),
]
