"""What community holds about a learner: their copy of it, and what goes when the account is
deleted. Comments stay (their threads would not read without them), signed "A deleted
learner" by the tombstone they keep pointing at. Subscribed in CommunityConfig.ready()."""

from __future__ import annotations

from typing import Any

from accounts.events import AccountDataAsked, AccountPurged
from community.models import Comment, IssueReport, LessonSubscription


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def export(event: AccountDataAsked) -> dict[str, Any]:
    comments = Comment.objects.filter(author_id=event.user_id).order_by("created_at", "pk")
    reports = IssueReport.objects.filter(reporter_id=event.user_id).order_by("created_at", "pk")
    return {
        "comments": [
            {
                "id": row["pk"],
                "lesson": row["lesson__slug"],
                "in_reply_to": row["reply_to_id"],
                "body": row["body"],
                "created_at": _iso(row["created_at"]),
                "edited_at": _iso(row["edited_at"]),
                "deleted": row["is_deleted"],
                "hidden": row["is_hidden"],
            }
            for row in comments.values(
                "pk",
                "lesson__slug",
                "reply_to_id",
                "body",
                "created_at",
                "edited_at",
                "is_deleted",
                "is_hidden",
            )
        ],
        "reports": [
            {
                "lesson": row["lesson__slug"],
                "kind": row["kind"],
                "message": row["message"],
                "status": row["status"],
                "created_at": _iso(row["created_at"]),
                "resolved_at": _iso(row["resolved_at"]),
                "answer": row["answer"],
            }
            for row in reports.values(
                "lesson__slug", "kind", "message", "status", "created_at", "resolved_at", "answer"
            )
        ],
        "followed_lessons": [
            {"lesson": slug, "notify_on_replies": subscribed}
            for slug, subscribed in LessonSubscription.objects.filter(user_id=event.user_id)
            .order_by("pk")
            .values_list("lesson__slug", "subscribed")
        ],
    }


def purge(event: AccountPurged) -> None:
    LessonSubscription.objects.filter(user_id=event.user_id).delete()
    # A report stays for the editors (it is about the lesson); who sent it does not.
    IssueReport.objects.filter(reporter_id=event.user_id).update(reporter=None, contact_email="")
