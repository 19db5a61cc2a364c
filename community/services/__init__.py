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
from community.services.fanout import notify_about_comment
from community.services.follows import LessonGone, set_lesson_subscription
from community.services.reports import (
    InvalidReport,
    assign_reports,
    change_report_status,
    reject_report,
    resolution_notice,
    resolve_report,
    submit_report,
    triage_report,
)
