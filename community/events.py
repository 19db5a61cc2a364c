"""What community announces to the apps above it (learning_platform/hooks.py)."""

from __future__ import annotations

from dataclasses import dataclass

from learning_platform.hooks import Hook


@dataclass(frozen=True)
class CommentPosted:
    user_id: int
    comment_id: int


@dataclass(frozen=True)
class ReportAccepted:
    """An issue report was resolved: its reporter helped."""

    user_id: int
    report_id: int


# Announced inside the posting (resolving) transaction.
comment_posted: Hook[CommentPosted, object] = Hook("community.comment_posted")
report_accepted: Hook[ReportAccepted, object] = Hook("community.report_accepted")
