from django.urls import path

from lessons import views

# The quest outline and the lesson page (`quest-detail`, `lesson-detail`) are pages' routes.
urlpatterns = [
    path("quests/", views.QuestListView.as_view(), name="quest-list"),
    path("lessons/", views.LessonListView.as_view(), name="lesson-list"),
]
