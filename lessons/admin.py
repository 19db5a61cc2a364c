from __future__ import annotations

import contextlib
from typing import Any, cast

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import QuerySet
from django.forms import BaseInlineFormSet, ModelForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, URLPattern, path, reverse
from django.utils.html import format_html
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_POST
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from learning_platform import admin_actions
from learning_platform.api.authentication import CsrfSessionAuthentication
from learning_platform.api.errors import PayloadTooLarge
from learning_platform.api.fields import StrictCharField
from learning_platform.errors import Conflict
from lessons import (
    admin_outline,  # noqa: F401  # registers the quest's pages (its outline)
    history,
    outline_services,
    services,
)
from lessons.admin_live_drafts import LiveDraftFilter, LiveDraftsAdminMixin
from lessons.blocks import CODE_LANGUAGES, KIND_FIELDS, markdown_preview
from lessons.forms import BlockForm, BlockFormSet, LessonForm, check_editor_config
from lessons.models import Block, Lesson, Link, Tag
from lessons.serializers import block_data

# The live preview posts as the editor types (debounced in the browser); this bounds it.
MARKDOWN_PREVIEW_MAX_CHARS = 50_000


class MarkdownPreview(APIView):
    """Lesson Markdown rendered by the platform's renderer, with what its sanitizer strips.

    POST {"markdown": "..."} (JSON, CSRF token in X-CSRFToken) -> {"html", "problems",
    "refusal"}; errors in the API's shape. The admin's own page, not part of the API's schema.
    """

    authentication_classes = [CsrfSessionAuthentication]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "admin_markdown_preview"  # REST_FRAMEWORK's DEFAULT_THROTTLE_RATES
    schema = None

    class Input(serializers.Serializer[Any]):
        markdown = StrictCharField(default="", allow_blank=True, trim_whitespace=False)

    def post(self, request: Request) -> Response:
        if not (
            request.user.has_perm("lessons.change_lesson")
            or request.user.has_perm("lessons.add_lesson")
        ):
            raise PermissionDenied
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        markdown: str = data.validated_data["markdown"]
        if len(markdown) > MARKDOWN_PREVIEW_MAX_CHARS:
            raise PayloadTooLarge("The Markdown is too long.")
        return Response(markdown_preview(markdown))


def _editor_id(request: HttpRequest | Request) -> int:
    # admin_view lets only signed-in staff through: the user has an id.
    return cast(int, request.user.pk)


class EditorPresence(APIView):
    """The heartbeat of an open change page: records that the editor has the lesson open and
    answers who else has (POST, CSRF token in X-CSRFToken) -> {"editors": [{"name",
    "last_seen"}], "heartbeat_seconds"}; errors in the API's shape (404 for a lesson gone)."""

    authentication_classes = [CsrfSessionAuthentication]
    schema = None

    class Output(serializers.Serializer[Any]):
        name = serializers.CharField()
        last_seen = serializers.DateTimeField()

    def post(self, request: Request, lesson_id: int) -> Response:
        if not request.user.has_perm("lessons.change_lesson"):
            raise PermissionDenied
        others = services.note_editor_present(lesson_id=lesson_id, editor_id=_editor_id(request))
        return Response(
            {
                "editors": self.Output(others, many=True).data,
                "heartbeat_seconds": services.PRESENCE_HEARTBEAT_SECONDS,
            }
        )


# ModelAdmin and its inlines are generic in django-stubs only: at run time they take no type
# argument.
class BlockInline(admin.StackedInline):  # type: ignore[type-arg]
    """Blocks on the page, each showing only its kind's fields, reordered by dragging their
    handle or with move up / move down, collapsible to a one-line summary
    (lessons/static/lessons/admin/block-editor.js). The hidden position inputs carry the order."""

    model = Block
    form = BlockForm
    formset = BlockFormSet
    template = "admin/lessons/block/stacked.html"
    extra = 0
    ordering = ("position", "id")
    fields = (
        "kind",
        "style",
        "markdown",
        "caption",
        "table",
        "title",
        "language",
        "source",
        "spec",
        "position",
    )


class LinkInline(admin.TabularInline):  # type: ignore[type-arg]  # as BlockInline
    model = Link
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    extra = 0
    ordering = ("position", "id")
    fields = ("position", "title", "url")


def _lesson_line(lesson: Lesson) -> str:
    """A lesson as a list action's question names it."""
    line = f"{lesson.quest} · {lesson.title}"
    if lesson.publish_at is not None:
        line += f" (scheduled for {lesson.publish_at:%Y-%m-%d %H:%M} UTC: the schedule is cleared)"
    return line


@admin.register(Lesson)
class LessonAdmin(LiveDraftsAdminMixin, admin.ModelAdmin):  # type: ignore[type-arg]  # as BlockInline
    list_display = ("title", "quest", "position", "estimated_minutes", "xp", "published", "preview")
    list_display_links = ("title",)
    list_editable = ("position", "published")
    list_filter = ("published", "quest", "unit", "tags", LiveDraftFilter)
    list_select_related = ("quest",)
    search_fields = (
        "title",
        "slug",
        "summary",
        "tags__slug",
        "blocks__markdown",
        "blocks__source",
        "blocks__caption",
        "blocks__title",
    )
    search_help_text = (
        "Words from a lesson's title, slug or summary, a tag's slug, or the text of its "
        "blocks (prose, callouts, checks' prompts, code, captions)."
    )
    prepopulated_fields = {"slug": ("title",)}
    filter_horizontal = ("tags",)
    ordering = ("quest", "position", "id")
    actions = ("publish", "unpublish")
    readonly_fields = ("updated_at", "preview")
    fieldsets = (
        (None, {"fields": (("quest", "unit"), "title", "slug", "summary")}),
        (
            "Settings",
            {
                "fields": (
                    ("estimated_minutes", "xp", "position"),
                    "tags",
                    ("published", "publish_at"),
                )
            },
        ),
        ("Status", {"fields": ("updated_at", "preview")}),
    )
    form = LessonForm
    inlines = [BlockInline, LinkInline]  # exercises.admin adds its ExerciseInline
    change_form_template = "admin/lessons/lesson/change_form.html"

    class Media:
        css = {"all": ("lessons/admin/block-editor.css",)}
        js = (
            "lessons/admin/form-draft.js",  # first: it restores a draft before the others start
            "lessons/admin/block-editor.js",
            "lessons/admin/check-editor.js",
            "lessons/admin/presence.js",
        )

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Lesson | None = None,
    ) -> HttpResponse:
        context["code_languages"] = CODE_LANGUAGES
        if obj is not None and obj.pk:
            # The analytics pages live in a higher app: linked by name only.
            with contextlib.suppress(NoReverseMatch):
                context["analytics_url"] = reverse(
                    "admin:insights_questanalytics_lesson", args=[obj.pk]
                )
        context["error_summary"] = error_summary(context)
        context["block_kind_fields"] = {
            kind: ["table" if f in ("columns", "rows") else f for f in fields]
            for kind, fields in KIND_FIELDS.items()
        }
        context["check_editor"] = check_editor_config()
        context.update(self.live_draft_context(obj))
        adminform = context.get("adminform")
        context["conflict"] = getattr(adminform.form, "conflict", []) if adminform else []
        if obj is not None and obj.pk and self.has_change_permission(request, obj):
            context["other_editors"] = services.note_editor_present(
                lesson_id=obj.pk, editor_id=_editor_id(request)
            )
            context["presence_url"] = reverse("admin:lessons_lesson_presence", args=[obj.pk])
            context["presence_heartbeat_seconds"] = services.PRESENCE_HEARTBEAT_SECONDS
        return super().render_change_form(request, context, add, change, form_url, obj)

    @admin.display(description="Preview")
    def preview(self, lesson: Lesson) -> str:
        if not lesson.pk:
            return "-"
        url = reverse("admin:lessons_lesson_preview", args=[lesson.pk])
        return format_html('<a href="{}" target="_blank">Preview</a>', url)

    @admin.action(description="Publish selected lessons", permissions=["change"])
    def publish(self, request: HttpRequest, queryset: QuerySet[Lesson]) -> HttpResponse | None:
        return self._set_published(request, queryset, published=True)

    @admin.action(description="Unpublish selected lessons", permissions=["change"])
    def unpublish(self, request: HttpRequest, queryset: QuerySet[Lesson]) -> HttpResponse | None:
        return self._set_published(request, queryset, published=False)

    def _set_published(
        self, request: HttpRequest, queryset: QuerySet[Lesson], *, published: bool
    ) -> HttpResponse | None:
        if not admin_actions.confirmed(request):
            return admin_actions.ask_first(
                self,
                request,
                queryset.select_related("quest"),
                action="publish" if published else "unpublish",
                title="Publish lessons" if published else "Unpublish lessons",
                consequence=(
                    "Learners will see these lessons at once."
                    if published
                    else "Learners will no longer see these lessons; what they did in them is kept."
                ),
                changes=lambda lesson: services.publishing_changes(lesson, published),
                line=_lesson_line,
                unchanged_heading=f"Already {'published' if published else 'unpublished'}",
            )
        changed = services.set_published(
            lesson_ids=list(queryset.values_list("id", flat=True)), published=published
        )
        verb = "Published" if published else "Unpublished"
        self.message_user(request, f"{verb} {changed} lesson(s).", messages.SUCCESS)
        return None

    def get_urls(self) -> list[URLPattern]:
        preview = path(
            "<int:lesson_id>/preview/",
            # Same-origin framing: the change form can show the preview beside itself.
            self.admin_site.admin_view(xframe_options_sameorigin(self.preview_view)),
            name="lessons_lesson_preview",
        )
        markdown_preview = path(
            "markdown-preview/",
            self.admin_site.admin_view(MarkdownPreview.as_view()),
            name="lessons_lesson_markdown_preview",
        )
        revert = path(
            "<int:lesson_id>/history/<int:history_id>/revert/",
            self.admin_site.admin_view(require_POST(self.revert_view)),
            name="lessons_lesson_revert",
        )
        compare = path(
            "<int:lesson_id>/history/compare/",
            self.admin_site.admin_view(self.compare_view),
            name="lessons_lesson_compare",
        )
        presence = path(
            "<int:lesson_id>/presence/",
            self.admin_site.admin_view(EditorPresence.as_view()),
            name="lessons_lesson_presence",
        )
        urls = [preview, markdown_preview, revert, compare, presence, *self.live_draft_urls()]
        return [*urls, *super().get_urls()]

    def save_model(
        self, request: HttpRequest, obj: Lesson, form: ModelForm[Lesson], change: bool
    ) -> None:
        # A changed lesson is saved after its blocks (save_related): its history record then
        # closes a version that includes them, as the curriculum loader's writes do.
        if not change:
            services.save_lesson(lesson=obj)
            # Inserted at a place in the outline: the lessons from there on move down.
            outline_services.place_new_lesson(lesson=obj)

    def save_related(
        self,
        request: HttpRequest,
        form: ModelForm[Lesson],
        formsets: list[BaseInlineFormSet[Any, Lesson, Any]],
        change: bool,
    ) -> None:
        super().save_related(request, form, formsets, change)
        if not isinstance(form, LessonForm):  # the change list's "position"/"published" edits
            form.instance.version += 1
        services.save_lesson(lesson=form.instance)  # a renamed slug keeps answering

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Every version of the lesson: who, when, what changed in its fields and blocks, and
        a button to go back to it."""
        lesson = get_object_or_404(Lesson, pk=object_id)
        if not self.has_view_or_change_permission(request, lesson):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "object": lesson,
            "original": lesson,
            "versions": history.lesson_versions(lesson_id=lesson.pk),
            "can_revert": self.has_change_permission(request, lesson),
            "title": f"History: {lesson.title}",
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/lessons/lesson/history.html", context)

    def compare_view(self, request: HttpRequest, lesson_id: int) -> HttpResponse:
        """Any two versions of the lesson compared (`?older=&newer=`, history ids)."""
        lesson = get_object_or_404(Lesson, pk=lesson_id)
        if not self.has_view_or_change_permission(request, lesson):
            raise PermissionDenied
        try:
            older, newer = int(request.GET["older"]), int(request.GET["newer"])
        except (KeyError, ValueError):
            raise Http404("Pick two versions of this lesson to compare.") from None
        comparison = history.compare_versions(lesson_id=lesson.pk, older_id=older, newer_id=newer)
        if comparison is None:
            raise Http404("No such version of this lesson.")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "object": lesson,
            "comparison": comparison,
            "title": f"Compare versions: {lesson.title}",
        }
        return TemplateResponse(request, "admin/lessons/lesson/compare.html", context)

    def revert_view(self, request: HttpRequest, lesson_id: int, history_id: int) -> HttpResponse:
        lesson = get_object_or_404(Lesson, pk=lesson_id)
        if not self.has_change_permission(request, lesson):
            raise PermissionDenied
        try:
            services.revert_lesson(lesson_id=lesson_id, history_id=history_id)
        except services.VersionNotFound:
            raise Http404("No such version of this lesson.") from None
        except Conflict as exc:
            self.message_user(request, f"Not reverted: {exc}", messages.ERROR)
        else:
            self.message_user(
                request,
                "Reverted. Learners see this version now; the revert is in the history.",
                messages.SUCCESS,
            )
        return redirect("admin:lessons_lesson_history", lesson_id)

    def preview_view(self, request: HttpRequest, lesson_id: int) -> HttpResponse:
        """The lesson as a learner will see it, drafts included (for whoever may view lessons)."""
        lesson = get_object_or_404(
            Lesson.objects.select_related("quest").prefetch_related("tags", "blocks", "links"),
            pk=lesson_id,
        )
        if not self.has_view_or_change_permission(request, lesson):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "lesson": lesson,
            # In their models' order: by position within the lesson.
            "blocks": [block_data(b) for b in lesson.blocks.all()],
            "links": lesson.links.all(),
            "title": f"Preview: {lesson.title}",
            # Shown beside the change form: the page without the admin's header and menus.
            "is_popup": request.GET.get("embed") == "1",
        }
        return TemplateResponse(request, "admin/lessons/lesson/preview.html", context)


def error_summary(context: dict[str, Any]) -> list[dict[str, Any]]:
    """What stops the save, one entry per failing part of the form (the lesson's fields, each
    block, each link...), with an anchor to jump to it."""
    entries: list[dict[str, Any]] = []
    adminform = context.get("adminform")
    if adminform is not None and adminform.form.errors:
        form = adminform.form
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else "Lesson"
            href = f"#id_{name}" if name in form.fields else "#content-main"
            entries.append({"label": str(label), "href": href, "messages": list(errors)})
    for inline in context.get("inline_admin_formsets", []):
        formset = inline.formset
        noun = str(inline.opts.verbose_name).capitalize()
        for message in formset.non_form_errors():
            entries.append(
                {"label": noun, "href": f"#{formset.prefix}-group", "messages": [message]}
            )
        for index, form in enumerate(formset.forms):
            if not form.errors:
                continue
            kind = form["kind"].value() if "kind" in form.fields else ""
            label = f"{noun} {index + 1}" + (f" ({kind})" if kind else "")
            messages_ = [
                f"{form.fields[name].label}: {message}" if name in form.fields else message
                for name, errors in form.errors.items()
                for message in errors
            ]
            entries.append(
                {"label": label, "href": f"#{formset.prefix}-{index}", "messages": messages_}
            )
    return entries


@admin.register(Tag)
class TagAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # as BlockInline
    search_fields = ("slug",)
    search_help_text = "Part of a tag's slug."


from lessons import admin_images  # noqa: E402, F401  (registers LessonImageAdmin)
