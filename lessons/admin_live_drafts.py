"""The admin's side of drafts of live lessons (lessons.live_drafts): "Edit a draft" on a
published lesson, a banner on both pages, and the draft's publish page (now, or at a time).

A mixin of LessonAdmin, so the lesson's page (and the exercises app's subclass of it) gets it
without lessons/admin.py growing: URLs, the change page's context, the fields a draft may not
set, and the list's filter that keeps drafts out of the way.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_POST

from learning_platform.errors import Conflict, InvalidField, InvalidInput
from lessons import live_drafts
from lessons.history import changes_since
from lessons.models import Lesson

# What a draft's own page may not change: its place and publishing are the live lesson's.
DRAFT_READONLY_FIELDS = ("quest", "slug", "position", "published", "publish_at")


class LiveDraftFilter(admin.SimpleListFilter):
    """Drafts of live lessons stand beside the lessons they rewrite: hidden from the list
    unless asked for (the live lesson's page links to its draft)."""

    title = "drafts of live lessons"
    parameter_name = "live_draft"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("only", "Only drafts of live lessons"), ("with", "Lessons and their drafts")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Lesson]) -> QuerySet[Lesson]:
        if self.value() == "only":
            return queryset.filter(draft_of__isnull=False)
        if self.value() == "with":
            return queryset
        return queryset.filter(draft_of__isnull=True)


def app_preview_url(lesson: Lesson) -> str:
    """The lesson's page in the web app (same origin): a draft shows there as learners will
    see it, with a banner saying it is a draft."""
    return f"/lessons/{lesson.slug}"


class LiveDraftsAdminMixin:
    """For LessonAdmin (a ModelAdmin): see the module's docstring."""

    admin_site: admin.AdminSite

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Declared for the type checker: ModelAdmin's, further along the MRO.
        return bool(super().has_change_permission(request, obj))  # type: ignore[misc]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_readonly_fields(request, obj)  # type: ignore[misc]
        if obj is not None and obj.draft_of_id is not None:
            return (*fields, *DRAFT_READONLY_FIELDS)
        return fields

    def get_prepopulated_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and obj.draft_of_id is not None:
            return {}  # its slug is read-only: the live lesson's address stays
        return super().get_prepopulated_fields(request, obj)  # type: ignore[misc]

    def live_draft_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:lesson_id>/make-draft/",
                self.admin_site.admin_view(require_POST(self.make_draft_view)),
                name="lessons_lesson_make_draft",
            ),
            path(
                "<int:lesson_id>/publish-draft/",
                self.admin_site.admin_view(self.publish_draft_view),
                name="lessons_lesson_publish_draft",
            ),
        ]

    def live_draft_context(self, obj: Lesson | None) -> dict[str, Any]:
        """What the change page says about drafts: on a published lesson, its draft or the
        offer of one; on a draft, what it drafts and whether the live lesson moved since."""
        if obj is None or not obj.pk:
            return {}
        if obj.draft_of_id is not None:
            live = obj.draft_of
            assert live is not None
            return {
                "live_draft": {
                    "is_draft": True,
                    "live": live,
                    "live_changed": live.version != obj.draft_base_version,
                    "scheduled": obj.draft_publish_at,
                    "app_url": app_preview_url(obj),
                    "publish_url": reverse("admin:lessons_lesson_publish_draft", args=[obj.pk]),
                }
            }
        if not obj.is_published:
            return {}
        draft = Lesson.objects.filter(draft_of=obj).only("id", "draft_publish_at").first()
        return {
            "live_draft": {
                "is_live": True,
                "draft": draft,
                "make_url": reverse("admin:lessons_lesson_make_draft", args=[obj.pk]),
            }
        }

    def make_draft_view(self, request: HttpRequest, lesson_id: int) -> HttpResponse:
        live = get_object_or_404(Lesson, pk=lesson_id)
        if not self.has_change_permission(request, live):
            raise PermissionDenied
        try:
            draft = live_drafts.make_live_draft(lesson_id=lesson_id)
        except live_drafts.DraftNotFound:
            messages.error(request, "A draft is made of a live lesson, not of a draft.")
            return redirect("admin:lessons_lesson_change", lesson_id)
        except Conflict as exc:
            messages.error(request, f"No draft made: {exc}")
            return redirect("admin:lessons_lesson_change", lesson_id)
        messages.success(
            request,
            f"This is your draft of “{live.title}”. Learners keep reading the live lesson "
            "until you publish the draft.",
        )
        return redirect("admin:lessons_lesson_change", draft.pk)

    def publish_draft_view(self, request: HttpRequest, lesson_id: int) -> HttpResponse:
        """GET: what publishing will do, and the forms to publish now, at a time, or drop a
        schedule. POST `when` = now | at (`at`, UTC) | unschedule; `overwrite` = 1 publishes
        over a live change the page showed."""
        draft = get_object_or_404(Lesson.objects.select_related("draft_of"), pk=lesson_id)
        live = draft.draft_of
        if live is None:
            messages.error(request, "This lesson is not a draft of a live lesson.")
            return redirect("admin:lessons_lesson_change", lesson_id)
        if not self.has_change_permission(request, live):
            raise PermissionDenied
        if request.method != "POST":
            return self._publish_page(request, draft, live)
        when = request.POST.get("when", "")
        try:
            if when == "now":
                live_drafts.publish_live_draft(
                    draft_id=draft.pk, overwrite=request.POST.get("overwrite") == "1"
                )
            elif when == "at":
                at = _utc_time(request.POST.get("at", ""))
                live_drafts.schedule_live_draft(draft_id=draft.pk, at=at)
                messages.success(
                    request, f"The draft will be published at {at:%Y-%m-%d %H:%M} UTC."
                )
                return redirect("admin:lessons_lesson_change", draft.pk)
            elif when == "unschedule":
                live_drafts.schedule_live_draft(draft_id=draft.pk, at=None)
                messages.success(request, "The draft is no longer scheduled.")
                return redirect("admin:lessons_lesson_change", draft.pk)
            else:
                return self._publish_page(request, draft, live, error="Pick how to publish.")
        except live_drafts.DraftNotFound:
            messages.error(request, "This draft is gone: published or deleted meanwhile.")
            return redirect("admin:lessons_lesson_change", live.pk)
        except live_drafts.LiveChangedSinceDraft as exc:
            return self._publish_page(request, draft, live, error=str(exc.detail), status=409)
        except InvalidInput as exc:
            return self._publish_page(request, draft, live, error=str(exc.detail), status=400)
        messages.success(
            request,
            "Published: learners read the new version now. The live lesson's History "
            "has it, and reverting to the version before undoes it.",
        )
        return redirect("admin:lessons_lesson_change", live.pk)

    def _publish_page(
        self,
        request: HttpRequest,
        draft: Lesson,
        live: Lesson,
        *,
        error: str = "",
        status: int = 200,
    ) -> HttpResponse:
        opts = Lesson._meta
        changed = live.version != draft.draft_base_version
        context = {
            **self.admin_site.each_context(request),
            "opts": opts,
            "object": draft,
            "draft": draft,
            "live": live,
            "error": error,
            "live_changes": (
                changes_since(lesson_id=live.pk, version=draft.draft_base_version or 0)
                if changed
                else []
            ),
            "app_url": app_preview_url(draft),
            "title": f"Publish the draft of “{live.title}”",
        }
        return TemplateResponse(
            request, "admin/lessons/lesson/publish_draft.html", context, status=status
        )


def _utc_time(value: str) -> datetime:
    """A time typed in the page's `datetime-local` field, read as UTC (the admin's zone)."""
    try:
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    except ValueError:
        raise InvalidField("at", "Give the time to publish as YYYY-MM-DD HH:MM (UTC).") from None
