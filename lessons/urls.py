from django.urls import path

from lessons import views

urlpatterns = [
    path("quests/", views.QuestListView.as_view(), name="quest-list"),
    path("quests/<slug:slug>/", views.QuestDetailView.as_view(), name="quest-detail"),
    path("lessons/", views.LessonListView.as_view(), name="lesson-list"),
    path("lessons/<slug:slug>/", views.LessonDetailView.as_view(), name="lesson-detail"),
]
