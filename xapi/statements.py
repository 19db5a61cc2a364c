"""xAPI statements as the ADL vocabulary names them, built from what the apps announce.

Pure functions: given the facts, the statement (xAPI 1.0.3). The learner is an account on
this site (`account.homePage` + the user's id), never an e-mail address.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

# Statement ids are uuid5 names in this namespace: the same event always gets the same id.
NAMESPACE = uuid.UUID("6f1c8c9e-3f7a-5b0e-9d55-2c1a4a0b7e42")

ADL_VERBS = {
    "answered": "http://adlnet.gov/expapi/verbs/answered",
    "completed": "http://adlnet.gov/expapi/verbs/completed",
}
ACTIVITY_TYPES = {
    "question": "http://adlnet.gov/expapi/activities/question",
    "lesson": "http://adlnet.gov/expapi/activities/lesson",
    "course": "http://adlnet.gov/expapi/activities/course",
}


def statement_id(source: str, key: str) -> uuid.UUID:
    return uuid.uuid5(NAMESPACE, f"{source}:{key}")


def _actor(*, home_page: str, user_id: int) -> dict[str, Any]:
    return {"objectType": "Agent", "account": {"homePage": home_page, "name": str(user_id)}}


def _activity(*, site: str, kind: str, path: str, name: str) -> dict[str, Any]:
    return {
        "objectType": "Activity",
        "id": f"{site}{path}",
        "definition": {"type": ACTIVITY_TYPES[kind], "name": {"en-US": name or path}},
    }


def _timestamp(at: datetime) -> str:
    return at.isoformat().replace("+00:00", "Z")


def answered(
    *,
    statement: uuid.UUID,
    site: str,
    user_id: int,
    check_id: int,
    lesson_slug: str,
    correct: bool,
    first_try: bool,
    at: datetime,
    duration_ms: int | None,
) -> dict[str, Any]:
    """A learner answered one of a lesson's checks: `result.success` is whether it was right."""
    result: dict[str, Any] = {
        "success": correct,
        "extensions": {f"{site}/xapi/first-try": first_try},
    }
    if duration_ms is not None:
        result["duration"] = f"PT{duration_ms / 1000:.2f}S"
    return {
        "id": str(statement),
        "actor": _actor(home_page=site, user_id=user_id),
        "verb": {"id": ADL_VERBS["answered"], "display": {"en-US": "answered"}},
        "object": _activity(
            site=site,
            kind="question",
            path=f"/lessons/{lesson_slug}#check-{check_id}",
            name=f"Check {check_id} of {lesson_slug}",
        ),
        "result": result,
        "context": {
            "contextActivities": {
                "parent": [
                    _activity(
                        site=site, kind="lesson", path=f"/lessons/{lesson_slug}", name=lesson_slug
                    )
                ]
            }
        },
        "timestamp": _timestamp(at),
    }


def completed(
    *, statement: uuid.UUID, site: str, user_id: int, lesson_slug: str, at: datetime
) -> dict[str, Any]:
    """A learner completed a lesson (passed all its checks)."""
    return {
        "id": str(statement),
        "actor": _actor(home_page=site, user_id=user_id),
        "verb": {"id": ADL_VERBS["completed"], "display": {"en-US": "completed"}},
        "object": _activity(
            site=site, kind="lesson", path=f"/lessons/{lesson_slug}", name=lesson_slug
        ),
        "result": {"completion": True, "success": True},
        "timestamp": _timestamp(at),
    }
