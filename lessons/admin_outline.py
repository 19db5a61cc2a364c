"""The quest's admin pages, its outline among them: the lessons in order, grouped into units,
reordered by drag or keyboard (lessons/static/lessons/admin/outline.js), with a lesson
inserted at a place, duplicated or moved to another quest. The writes are
lessons.outline_services'; these views only map the page's requests onto them."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from simple_history.admin import SimpleHistoryAdmin

from learning_platform.api.authentication import CsrfSessionAuthentication
from learning_platform.api.fields import StrictCharField
from learning_platform.errors import DomainError
from lessons import outline_services
from lessons.models import Lesson, Quest, Unit
from lessons.outline_selectors import editor_outline


class _OpenedLesson(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    version = serializers.IntegerField(min_value=1)


class _UnitOrder(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    lessons = _OpenedLesson(many=True)


class OutlineOrder(APIView):
    """Save the outline's order: POST {"lessons": [{"id", "version"}] (in no unit), "units":
    [{"id", "lessons": [...]}]} (JSON, CSRF token in X-CSRFToken) -> {"versions": {id:
    version}}; 409 (`stale_outline`) when the quest changed since the page was opened, errors
    in the API's shape. The admin's own page, not part of the API's schema."""

    authentication_classes = [CsrfSessionAuthentication]
    schema = None

    class Input(serializers.Serializer[Any]):
        lessons = _OpenedLesson(many=True)
        units = _UnitOrder(many=True)

    def post(self, request: Request, quest_id: int) -> Response:
        if not request.user.has_perm("lessons.change_lesson"):
            raise PermissionDenied
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        opened = outline_services.OpenedLesson
        versions = outline_services.save_order(
            quest_id=quest_id,
            lessons=[opened(**lesson) for lesson in data.validated_data["lessons"]],
            units=[
                outline_services.UnitOrder(
                    id=unit["id"], lessons=[opened(**lesson) for lesson in unit["lessons"]]
                )
                for unit in data.validated_data["units"]
            ],
        )
        return Response({"versions": {str(k): v for k, v in versions.items()}})


class _UnitTitle(serializers.Serializer[Any]):
    title = StrictCharField(max_length=200)


class UnitInline(admin.TabularInline):  # type: ignore[type-arg]  # generic in the stubs only
    """Units named, renamed and deleted here; ordered on the outline page."""

    model = Unit
    extra = 0
    fields = ("title", "position")
    ordering = ("position", "id")


@admin.register(Quest)
class QuestAdmin(SimpleHistoryAdmin):  # type: ignore[misc]  # simple_history has no types
    list_display = ("title", "slug", "lesson_count", "outline_link")
    search_fields = ("title", "slug")
    search_help_text = "Part of a quest's title or slug."
    prepopulated_fields = {"slug": ("title",)}
    change_form_template = "admin/lessons/quest/change_form.html"
    inlines = [UnitInline]

    @admin.display(description="Lessons")
    def lesson_count(self, quest: Quest) -> int:
        return quest.lessons.count()

    @admin.display(description="Outline")
    def outline_link(self, quest: Quest) -> str:
        url = reverse("admin:lessons_quest_outline", args=[quest.pk])
        return format_html('<a href="{}">Outline</a>', url)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path("<int:quest_id>/outline/", view(self.outline_view), name="lessons_quest_outline"),
            path(
                "<int:quest_id>/outline/order/",
                view(OutlineOrder.as_view()),
                name="lessons_quest_outline_order",
            ),
            path(
                "<int:quest_id>/outline/units/",
                view(require_POST(self.add_unit_view)),
                name="lessons_quest_outline_add_unit",
            ),
            path(
                "<int:quest_id>/outline/lessons/<int:lesson_id>/duplicate/",
                view(require_POST(self.duplicate_view)),
                name="lessons_quest_outline_duplicate",
            ),
            path(
                "<int:quest_id>/outline/lessons/<int:lesson_id>/move/",
                view(require_POST(self.move_view)),
                name="lessons_quest_outline_move",
            ),
            *super().get_urls(),
        ]

    def _quest(self, request: HttpRequest, quest_id: int, *, perm: str) -> Quest:
        if not request.user.has_perm(perm):
            raise PermissionDenied
        return get_object_or_404(Quest, pk=quest_id)

    def outline_view(self, request: HttpRequest, quest_id: int) -> HttpResponse:
        quest = self._quest(request, quest_id, perm="lessons.view_lesson")
        outline = editor_outline(quest=quest)
        add_url = reverse("admin:lessons_lesson_add")
        number, last = 0, 0
        for unit in outline.units:
            for lesson in unit.lessons:
                number += 1
                last = max(last, lesson.position)
                lesson.number = number  # type: ignore[attr-defined]  # the page's numbering
                # Insert before this lesson: it takes this lesson's place.
                lesson.insert_url = _add_url(  # type: ignore[attr-defined]  # as number
                    add_url, quest=quest.pk, unit=unit.id, position=lesson.position
                )
            # At the end of the unit: after the last lesson so far in the outline.
            unit.insert_url = _add_url(  # type: ignore[attr-defined]  # as number
                add_url, quest=quest.pk, unit=unit.id, position=last + 1
            )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": quest,
            "title": f"Outline: {quest.title}",
            "outline": outline,
            "can_change": request.user.has_perm("lessons.change_lesson"),
            "can_add": request.user.has_perm("lessons.add_lesson"),
        }
        return TemplateResponse(request, "admin/lessons/quest/outline.html", context)

    def add_unit_view(self, request: HttpRequest, quest_id: int) -> HttpResponse:
        quest = self._quest(request, quest_id, perm="lessons.add_unit")
        data = _UnitTitle(data=request.POST)
        if not data.is_valid():
            self.message_user(request, "A unit needs a title.", messages.ERROR)
        else:
            self._act(request, outline_services.add_unit, quest_id=quest.pk, **data.validated_data)
        return redirect("admin:lessons_quest_outline", quest.pk)

    def duplicate_view(self, request: HttpRequest, quest_id: int, lesson_id: int) -> HttpResponse:
        self._quest(request, quest_id, perm="lessons.add_lesson")
        copy = self._act(request, outline_services.duplicate_lesson, lesson_id=lesson_id)
        if isinstance(copy, Lesson):
            self.message_user(
                request, f"Added “{copy.title}” ({copy.slug}), unpublished.", messages.SUCCESS
            )
        return redirect("admin:lessons_quest_outline", quest_id)

    def move_view(self, request: HttpRequest, quest_id: int, lesson_id: int) -> HttpResponse:
        self._quest(request, quest_id, perm="lessons.change_lesson")
        try:
            target, version = int(request.POST["quest"]), int(request.POST["version"])
        except (KeyError, ValueError):
            self.message_user(request, "Pick the quest to move the lesson to.", messages.ERROR)
            return redirect("admin:lessons_quest_outline", quest_id)
        moved = self._act(
            request,
            outline_services.move_lesson,
            lesson_id=lesson_id,
            version=version,
            quest_id=target,
        )
        if isinstance(moved, Lesson):
            self.message_user(
                request, f"Moved “{moved.title}” to the end of its new quest.", messages.SUCCESS
            )
        return redirect("admin:lessons_quest_outline", quest_id)

    def _act(self, request: HttpRequest, service: Any, **kwargs: Any) -> Any:
        """The service's result, or None with its refusal shown on the page."""
        try:
            return service(**kwargs)
        except DomainError as exc:
            self.message_user(request, f"Nothing changed: {exc}", messages.ERROR)
            return None


def _add_url(add_url: str, **initial: int | None) -> str:
    """The lesson's add form with these fields filled in."""
    return f"{add_url}?{urlencode({k: v for k, v in initial.items() if v is not None})}"
