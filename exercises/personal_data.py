"""What exercises holds about a learner: their copy of it, and what goes when the account is
deleted. Subscribed in ExercisesConfig.ready()."""

from __future__ import annotations

from typing import Any

from accounts.events import AccountDataAsked, AccountPurged
from exercises.models import CheckAnswer, CheckState, Submission


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def export(event: AccountDataAsked) -> dict[str, Any]:
    submissions = Submission.objects.filter(user_id=event.user_id).order_by("created_at", "pk")
    answers = CheckAnswer.objects.filter(user_id=event.user_id).order_by("answered_at", "pk")
    checks = CheckState.objects.filter(user_id=event.user_id).order_by("first_answered_at", "pk")
    return {
        "submissions": [
            {
                "exercise": row["exercise__slug"],
                "format": row["format"],
                "content": row["content"],
                "notes": row["notes"],
                "status": row["status"],
                "score": row["score"],
                "passed": row["passed"],
                "xp_awarded": row["xp_awarded"],
                "summary": row["summary"],
                "created_at": _iso(row["created_at"]),
                "graded_at": _iso(row["graded_at"]),
            }
            for row in submissions.values(
                "exercise__slug",
                "format",
                "content",
                "notes",
                "status",
                "score",
                "passed",
                "xp_awarded",
                "summary",
                "created_at",
                "graded_at",
            )
        ],
        "check_answers": [
            {
                "check": row["check_block_id"],
                "answer": row["answer"],
                "correct": row["correct"],
                "revealed": row["revealed"],
                "answered_at": _iso(row["answered_at"]),
            }
            for row in answers.values(
                "check_block_id", "answer", "correct", "revealed", "answered_at"
            )
        ],
        "checks": [
            {
                "lesson": row["lesson__slug"],
                "check": row["check_block_id"],
                "tries": row["tries"],
                "wrong_tries": row["wrong_tries"],
                "first_answered_at": _iso(row["first_answered_at"]),
                "passed_at": _iso(row["passed_at"]),
                "revealed_at": _iso(row["revealed_at"]),
                "xp_awarded": row["xp_awarded"],
            }
            for row in checks.values(
                "lesson__slug",
                "check_block_id",
                "tries",
                "wrong_tries",
                "first_answered_at",
                "passed_at",
                "revealed_at",
                "xp_awarded",
            )
        ],
    }


def purge(event: AccountPurged) -> None:
    # The tables submitted stay for the exercises' statistics; the notes are free text.
    Submission.objects.filter(user_id=event.user_id).exclude(notes="").update(notes="")
