"""Writes of the community app, one module per job: comments, follows, the fan-out of a new
comment, issue reports. The public functions are re-exported here (`community.services.X`).

Errors a learner can cause are the project's exceptions (learning_platform/errors.py); what
learners are told goes through notifications.services.
"""

from community.services.comments import (
    InvalidComment,
    NotCommentAuthor,
    check_author,
    delete_comment,
    edit_comment,
    hide_comment,
    post_comment,
    rerender_comment_html,
    unhide_comment,
)
from community.services.fanout import NotificationKind, notify_about_comment
from community.services.follows import (
    LessonGone,
    describe_followed_lesson,
    set_lesson_subscription,
    unfollow_lesson,
)
from community.services.reports import (
    InvalidReport,
    assign_reports,
    change_report_status,
    notify_report_resolved,
    reject_report,
    resolution_notice,
    resolve_report,
    submit_report,
    triage_report,
)

__all__ = [
    "InvalidComment",
    "InvalidReport",
    "LessonGone",
    "NotCommentAuthor",
    "NotificationKind",
    "assign_reports",
    "change_report_status",
    "check_author",
    "delete_comment",
    "describe_followed_lesson",
    "edit_comment",
    "hide_comment",
    "notify_about_comment",
    "notify_report_resolved",
    "post_comment",
    "reject_report",
    "rerender_comment_html",
    "resolution_notice",
    "resolve_report",
    "set_lesson_subscription",
    "submit_report",
    "triage_report",
    "unfollow_lesson",
    "unhide_comment",
]
