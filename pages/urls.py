from django.urls import path

from pages import views

urlpatterns = [
    path("quests/<slug:slug>/", views.QuestDetailView.as_view(), name="quest-detail"),
    path("lessons/<slug:slug>/", views.LessonDetailView.as_view(), name="lesson-detail"),
]
