"""Staff tools: moderate comments, triage issue reports, look at follows.

Every change of state goes through community.services (actions and the change form alike),
so resolving a report in the form notifies the reporter exactly as the action does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.text import Truncator
from django.utils.timesince import timesince

from accounts.signed_in import SignedInHttpRequest
from community import services
from community.models import Comment, IssueReport, LessonSubscription
from learning_platform import admin_actions
from learning_platform.admin_lists import LargeTableAdmin
from lessons import selectors as lessons


def _lesson_link(lesson: lessons.Lesson) -> str:
    try:
        url = reverse("admin:lessons_lesson_change", args=[lesson.pk])
    except NoReverseMatch:
        return str(lesson)
    return format_html('<a href="{}">{}</a>', url, lesson)


# --- Comments -------------------------------------------------------------------------------


def _comment_line(comment: Comment) -> str:
    """A comment as a list action's question names it."""
    text = "[deleted]" if comment.is_deleted else Truncator(comment.body).chars(80)
    return f"#{comment.pk} by {comment.author} on “{comment.lesson.title}”: {text}"


@admin.register(Comment)
class CommentAdmin(LargeTableAdmin):
    list_display = ("id", "excerpt", "author", "lesson_link", "parent", "created_at", "is_hidden")
    list_filter = ("is_hidden", "is_deleted", "lesson__quest")
    search_fields = ("body", "author__email", "author__display_name", "lesson__slug")
    search_help_text = (
        "Part of a comment's text, its author's e-mail address or name, or a lesson's slug."
    )
    list_select_related = ("author", "lesson", "parent")
    date_hierarchy = "created_at"
    actions = ("hide_comments", "unhide_comments")
    fields = (
        "lesson_link",
        "author",
        "parent",
        "reply_to",
        "body",
        "created_at",
        "edited_at",
        "is_deleted",
        "is_hidden",
        "hidden_reason",
        "hidden_at",
    )
    readonly_fields = tuple(f for f in fields if f not in ("is_hidden", "hidden_reason"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="comment")
    def excerpt(self, comment: Comment) -> str:
        return "[deleted]" if comment.is_deleted else Truncator(comment.body).chars(80)

    @admin.display(description="lesson", ordering="lesson__title")
    def lesson_link(self, comment: Comment) -> str:
        return _lesson_link(comment.lesson)

    def save_model(
        self, request: HttpRequest, obj: Comment, form: ModelForm[Comment], change: bool
    ) -> None:
        if "is_hidden" in form.changed_data or "hidden_reason" in form.changed_data:
            stored = Comment.objects.get(pk=obj.pk)
            if obj.is_hidden:
                services.hide_comment(comment=stored, reason=obj.hidden_reason)
            else:
                services.unhide_comment(comment=stored)

    @admin.action(description="Hide the selected comments (and their threads)")
    def hide_comments(
        self, request: HttpRequest, queryset: QuerySet[Comment]
    ) -> HttpResponse | None:
        if not admin_actions.confirmed(request):
            return self._ask(request, queryset, hide=True)
        for comment in queryset:
            services.hide_comment(comment=comment, reason=f"Hidden by {request.user}")
        self.message_user(request, f"Hid {len(queryset)} comment(s).", messages.SUCCESS)
        return None

    @admin.action(description="Show the selected comments again")
    def unhide_comments(
        self, request: HttpRequest, queryset: QuerySet[Comment]
    ) -> HttpResponse | None:
        if not admin_actions.confirmed(request):
            return self._ask(request, queryset, hide=False)
        for comment in queryset:
            services.unhide_comment(comment=comment)
        self.message_user(request, f"Showed {len(queryset)} comment(s).", messages.SUCCESS)
        return None

    def _ask(
        self, request: HttpRequest, queryset: QuerySet[Comment], *, hide: bool
    ) -> HttpResponse:
        return admin_actions.ask_first(
            self,
            request,
            queryset.select_related("author", "lesson"),
            action="hide_comments" if hide else "unhide_comments",
            title="Hide comments" if hide else "Show comments again",
            consequence=(
                "Learners will no longer see these comments, nor the replies under a hidden "
                "first comment; the notifications they caused are taken back."
                if hide
                else "Learners will see these comments again (no notification is sent again)."
            ),
            changes=lambda comment: comment.is_hidden != hide,
            line=_comment_line,
            unchanged_heading="Already hidden" if hide else "Already shown",
        )


# --- Issue reports --------------------------------------------------------------------------


class AssignedFilter(admin.SimpleListFilter):
    title = "assigned"
    parameter_name = "assigned"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> Iterable[tuple[str, str]]:
        return (("me", "To me"), ("nobody", "To nobody"))

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "me":
            return queryset.filter(assignee=request.user)
        if self.value() == "nobody":
            return queryset.filter(assignee__isnull=True)
        return queryset


@admin.register(IssueReport)
# ModelAdmin is generic in django-stubs only: at run time it takes no type argument.
class IssueReportAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Triage by content editors (view, assign, status, internal note); deleting is for
    superusers. Each report links to the block it is about on the lesson's change page."""

    list_display = (
        "excerpt",
        "lesson_title",
        "block_link",
        "kind",
        "status",
        "assignee",
        "age",
    )
    list_display_links = ("excerpt",)
    list_filter = (
        "status",
        "kind",
        AssignedFilter,
        ("assignee", admin.RelatedOnlyFieldListFilter),
        "lesson__quest",
        ("lesson", admin.RelatedOnlyFieldListFilter),
    )
    # Never the reporter's e-mail address: editors triage what was reported, not who by.
    search_fields = ("message", "lesson__slug", "lesson__title")
    search_help_text = "Part of a report's message, or its lesson's slug or title."
    list_select_related = ("lesson", "assignee", "block")
    list_per_page = 50
    date_hierarchy = "created_at"
    actions = ("assign_to_me", "mark_triaged", "resolve_accepted", "reject")

    class Media:
        css = {"all": ("community/admin/reports.css",)}
        js = ("community/admin/report-resolve.js",)

    fields = (
        "lesson_link",
        "block_link",
        "kind",
        "message",
        "reporter_display",
        "created_at",
        "status",
        "on_resolve",
        "answer",
        "assignee",
        "internal_note",
        "resolved_at",
    )
    readonly_fields = tuple(
        f for f in fields if f not in ("status", "answer", "assignee", "internal_note")
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: IssueReport | None = None) -> bool:
        # A report is the reporter's record (it counts towards their achievements).
        return request.user.is_superuser

    @admin.display(description="message")
    def excerpt(self, report: IssueReport) -> str:
        return Truncator(report.message).chars(60)

    @admin.display(description="lesson", ordering="lesson__title")
    def lesson_title(self, report: IssueReport) -> str:
        return report.lesson.title

    @admin.display(description="lesson", ordering="lesson__title")
    def lesson_link(self, report: IssueReport) -> str:
        return _lesson_link(report.lesson)

    @admin.display(description="age", ordering="created_at")
    def age(self, report: IssueReport) -> str:
        return timesince(report.created_at, depth=1)

    @admin.display(description="where")
    def block_link(self, report: IssueReport) -> str:
        url = reverse("admin:lessons_lesson_change", args=[report.lesson_id])
        if report.block is not None:
            label = f"{report.block.get_kind_display()} #{report.block.position}"
            return format_html('<a href="{}#block-{}">{}</a>', url, report.block_id, label)
        if report.block_position is not None:
            label = f"#{report.block_position} (replaced)"
            return format_html('<a href="{}#blocks-group">{}</a>', url, label)
        return format_html('<a href="{}">whole lesson</a>', url)

    @admin.display(description="if resolved (accepted)")
    def on_resolve(self, report: IssueReport) -> str:
        return format_html(
            '<p class="lp-resolve-notice" role="note">{}</p>',
            services.resolution_notice(report=report),
        )

    @admin.display(description="reporter")
    def reporter_display(self, report: IssueReport) -> str:
        """As other learners see them (issue 41): editors never see a reporter's address."""
        if report.reporter is not None:
            return report.reporter.public_name
        return "signed out, left an address" if report.contact_email else "signed out"

    def save_model(
        self,
        request: HttpRequest,
        obj: IssueReport,
        form: ModelForm[IssueReport],
        change: bool,
    ) -> None:
        # Status goes through the service (resolved_at, reporter notification); the rest is
        # plain staff bookkeeping.
        IssueReport.objects.filter(pk=obj.pk).update(
            assignee=obj.assignee, internal_note=obj.internal_note
        )
        if "status" in form.changed_data:
            services.change_report_status(report=obj, status=obj.status)

    @admin.action(description="Assign to me", permissions=["change"])
    def assign_to_me(self, request: SignedInHttpRequest, queryset: QuerySet[IssueReport]) -> None:
        assigned = services.assign_reports(
            report_ids=list(queryset.values_list("pk", flat=True)), assignee=request.user
        )
        self.message_user(request, f"Assigned {assigned} report(s) to you.", messages.SUCCESS)

    @admin.action(description="Mark triaged", permissions=["change"])
    def mark_triaged(self, request: HttpRequest, queryset: QuerySet[IssueReport]) -> None:
        for report in queryset:
            services.triage_report(report=report)
        self.message_user(request, f"Triaged {len(queryset)} report(s).", messages.SUCCESS)

    @admin.action(description="Resolve (accepted) — notifies the reporter", permissions=["change"])
    def resolve_accepted(
        self, request: HttpRequest, queryset: QuerySet[IssueReport]
    ) -> HttpResponse | None:
        if not admin_actions.confirmed(request):
            return self._ask(request, queryset, status=IssueReport.Status.RESOLVED)
        for report in queryset:
            services.resolve_report(report=report)
        self.message_user(request, f"Resolved {len(queryset)} report(s).", messages.SUCCESS)
        return None

    @admin.action(description="Reject", permissions=["change"])
    def reject(self, request: HttpRequest, queryset: QuerySet[IssueReport]) -> HttpResponse | None:
        if not admin_actions.confirmed(request):
            return self._ask(request, queryset, status=IssueReport.Status.REJECTED)
        for report in queryset:
            services.reject_report(report=report)
        self.message_user(request, f"Rejected {len(queryset)} report(s).", messages.SUCCESS)
        return None

    def _ask(
        self, request: HttpRequest, queryset: QuerySet[IssueReport], *, status: str
    ) -> HttpResponse:
        resolving = status == IssueReport.Status.RESOLVED
        return admin_actions.ask_first(
            self,
            request,
            queryset.select_related("lesson"),
            action="resolve_accepted" if resolving else "reject",
            title="Resolve reports" if resolving else "Reject reports",
            consequence=(
                "Each reporter is told their report was accepted, and it counts for them."
                if resolving
                else "These reports are closed as rejected."
            ),
            changes=lambda report: report.status != status,
            unchanged_heading="Already resolved" if resolving else "Already rejected",
        )


# --- Follows (read-mostly) -----------------------------------------------------------------


@admin.register(LessonSubscription)
class LessonSubscriptionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # as IssueReportAdmin
    list_display = ("user", "lesson", "subscribed", "updated_at")
    list_filter = ("subscribed",)
    search_fields = ("user__email", "lesson__slug")
    search_help_text = "Part of a subscriber's e-mail address or a lesson's slug."
    list_select_related = ("user", "lesson")
    raw_id_fields = ("user", "lesson")
