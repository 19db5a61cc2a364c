from django import forms
from django.contrib import admin, messages
from django.db import models
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from exercises.admin import ExerciseInline
from lessons import services
from lessons.blocks import block_html
from lessons.models import Block, Lesson, Link, Quest, Tag
from lessons.serializers import block_data


class BlockForm(forms.ModelForm):
    def save(self, commit: bool = True) -> Block:
        # The HTML learners get is rendered here, once, not on every read.
        self.instance.html = block_html(self.instance.kind, self.instance.markdown)
        return super().save(commit=commit)


class BlockInline(admin.StackedInline):
    model = Block
    form = BlockForm
    extra = 0
    ordering = ("position", "id")
    fields = (
        ("kind", "position"),
        "markdown",
        "style",
        ("caption",),
        "columns",
        "rows",
        ("title", "language"),
        "source",
    )
    classes = ("collapse-open",)


class LinkInline(admin.TabularInline):
    model = Link
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    extra = 0
    ordering = ("position", "id")
    fields = ("position", "title", "url")


@admin.register(Lesson)
class LessonAdmin(admin.ModelAdmin):
    list_display = ("title", "quest", "position", "estimated_minutes", "xp", "published", "preview")
    list_display_links = ("title",)
    list_editable = ("position", "published")
    list_filter = ("published", "quest", "tags")
    list_select_related = ("quest",)
    search_fields = ("title", "slug", "summary", "tags__slug")
    prepopulated_fields = {"slug": ("title",)}
    filter_horizontal = ("tags",)
    ordering = ("quest", "position", "id")
    actions = ("publish", "unpublish")
    readonly_fields = ("updated_at", "preview")
    fieldsets = (
        (None, {"fields": ("quest", "title", "slug", "summary")}),
        ("Settings", {"fields": (("estimated_minutes", "xp", "position"), "tags", "published")}),
        ("Status", {"fields": ("updated_at", "preview")}),
    )
    inlines = [BlockInline, LinkInline, ExerciseInline]

    @admin.display(description="Preview")
    def preview(self, lesson: Lesson) -> str:
        if not lesson.pk:
            return "-"
        url = reverse("admin:lessons_lesson_preview", args=[lesson.pk])
        return format_html('<a href="{}" target="_blank">Preview</a>', url)

    @admin.action(description="Publish selected lessons", permissions=["change"])
    def publish(self, request, queryset):
        changed = services.set_published(
            lesson_ids=list(queryset.values_list("id", flat=True)), published=True
        )
        self.message_user(request, f"Published {changed} lesson(s).", messages.SUCCESS)

    @admin.action(description="Unpublish selected lessons", permissions=["change"])
    def unpublish(self, request, queryset):
        changed = services.set_published(
            lesson_ids=list(queryset.values_list("id", flat=True)), published=False
        )
        self.message_user(request, f"Unpublished {changed} lesson(s).", messages.SUCCESS)

    def get_urls(self):
        preview = path(
            "<int:lesson_id>/preview/",
            self.admin_site.admin_view(self.preview_view),
            name="lessons_lesson_preview",
        )
        return [preview, *super().get_urls()]

    def preview_view(self, request, lesson_id: int):
        """The lesson as a learner will see it, drafts included (for whoever may view lessons)."""
        lesson = get_object_or_404(
            Lesson.objects.select_related("quest").prefetch_related("tags", "blocks", "links"),
            pk=lesson_id,
        )
        if not self.has_view_or_change_permission(request, lesson):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "lesson": lesson,
            "blocks": [
                block_data(b) for b in sorted(lesson.blocks.all(), key=lambda b: (b.position, b.id))
            ],
            "links": sorted(lesson.links.all(), key=lambda link: (link.position, link.id)),
            "title": f"Preview: {lesson.title}",
        }
        return TemplateResponse(request, "admin/lessons/lesson/preview.html", context)


@admin.register(Quest)
class QuestAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "lesson_count")
    search_fields = ("title", "slug")
    prepopulated_fields = {"slug": ("title",)}

    @admin.display(description="Lessons")
    def lesson_count(self, quest: Quest) -> int:
        return quest.lessons.count()


@admin.register(Tag)
class TagAdmin(admin.ModelAdmin):
    search_fields = ("slug",)
