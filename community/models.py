"""Community: lesson comments, follows, issue reports (notifications are the notifications app's).

Who follows a lesson (and so hears about new comments on it):
- learners with an explicit subscription on (`LessonSubscription.subscribed=True`), plus
- learners whose profile default `reply_notifications` is on and who have commented on it,
- minus learners with an explicit subscription off (`subscribed=False`).
Inactive accounts follow nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual

from learning_platform import clock

COMMENT_MAX_LENGTH = 5000
REPORT_MESSAGE_MAX_LENGTH = 2000


class CommentQuerySet(models.QuerySet["Comment"]):
    def shown(self) -> CommentQuerySet:
        """Comments not hidden by staff and not deleted (their thread aside)."""
        return self.filter(is_hidden=False, is_deleted=False)

    def visible(self) -> CommentQuerySet:
        """Comments anyone may read: shown, and not in a hidden thread."""
        return self.shown().exclude(parent__is_hidden=True)


class Comment(models.Model):
    """A learner's comment on a lesson, or a reply in a comment's thread.

    Threads are one level deep: `parent` is always a top-level comment. Replying to a reply
    attaches the new reply to the same top-level comment and records the comment answered in
    `reply_to`, whose author is notified.
    """

    lesson = models.ForeignKey("lessons.Lesson", on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="comments"
    )
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="replies"
    )
    reply_to = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The comment this one answers (the parent, or a reply in its thread).",
    )
    body = models.TextField(max_length=COMMENT_MAX_LENGTH, help_text="Markdown source.")
    body_html = models.TextField(
        blank=True, editable=False, help_text="Sanitized HTML rendered from `body` when written."
    )
    created_at = models.DateTimeField(default=clock.now, editable=False, db_index=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    # Deleted by its author while it has replies: kept as "[deleted]", body cleared.
    is_deleted = models.BooleanField(default=False)
    deleted_at = models.DateTimeField(null=True, blank=True)
    is_hidden = models.BooleanField(
        "hidden", default=False, help_text="Hidden by staff: nobody sees it or its replies."
    )
    hidden_reason = models.CharField(max_length=200, blank=True)
    hidden_at = models.DateTimeField(null=True, blank=True)

    objects = CommentQuerySet.as_manager()

    class Meta:
        ordering = ("created_at", "id")
        indexes = [
            models.Index(fields=["lesson", "parent", "created_at"]),
            models.Index(fields=["author", "created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("body"), COMMENT_MAX_LENGTH),
                name="community_comment_body_max_length",
            ),
            models.CheckConstraint(
                condition=~Q(parent=F("id")), name="community_comment_not_own_parent"
            ),
            models.CheckConstraint(
                condition=Q(is_deleted=False) | Q(body=""),
                name="community_comment_deleted_has_no_body",
            ),
        ]

    def __str__(self) -> str:
        return f"Comment #{self.pk} on {self.lesson_id}"


class LessonSubscription(models.Model):
    """An explicit per-lesson choice that overrides the profile default (`reply_notifications`)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lesson_subscriptions"
    )
    lesson = models.ForeignKey(
        "lessons.Lesson", on_delete=models.CASCADE, related_name="subscriptions"
    )
    subscribed = models.BooleanField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "lesson"], name="community_subscription_unique"
            ),
        ]
        indexes = [models.Index(fields=["lesson", "subscribed"])]

    def __str__(self) -> str:
        return f"{self.user_id} {'follows' if self.subscribed else 'ignores'} {self.lesson_id}"


class IssueReport(models.Model):
    """ "Spotted a bug or have feedback on this page?" — a report staff triage in the admin.

    A report resolved (status `resolved`) counts as accepted; `rejected` does not.
    """

    class Kind(models.TextChoices):
        TYPO = "typo", "Typo"
        INCORRECT = "incorrect", "Incorrect content"
        BROKEN_LINK = "broken_link", "Broken link"
        UNCLEAR = "unclear", "Unclear explanation"
        OTHER = "other", "Other"

    class Status(models.TextChoices):
        NEW = "new", "New"
        TRIAGED = "triaged", "Triaged"
        RESOLVED = "resolved", "Resolved (accepted)"
        REJECTED = "rejected", "Rejected"

    lesson = models.ForeignKey("lessons.Lesson", on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="issue_reports",
    )
    contact_email = models.EmailField(
        blank=True, help_text="Signed-out reporters only: where to tell them it is resolved."
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    message = models.TextField(max_length=REPORT_MESSAGE_MAX_LENGTH)
    block = models.ForeignKey(
        "lessons.Block", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Kept when the block itself is replaced (content reloads recreate blocks).
    block_position = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.NEW)
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="assigned_reports",
        limit_choices_to={"is_staff": True},
    )
    internal_note = models.TextField(blank=True, help_text="Staff only; never shown to reporters.")
    answer = models.TextField(
        blank=True,
        max_length=REPORT_MESSAGE_MAX_LENGTH,
        help_text="The editors' answer, shown to the reporter in My reports.",
    )
    created_at = models.DateTimeField(default=clock.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)
    resolved_at = models.DateTimeField(
        null=True, blank=True, help_text="When it was resolved or rejected."
    )

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            models.Index(fields=["reporter", "status"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["typo", "incorrect", "broken_link", "unclear", "other"]),
                name="community_report_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["new", "triaged", "resolved", "rejected"]),
                name="community_report_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["resolved", "rejected"], resolved_at__isnull=False)
                | Q(status__in=["new", "triaged"], resolved_at__isnull=True),
                name="community_report_resolved_at_matches_status",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on “{self.lesson.title}” (report #{self.pk})"
