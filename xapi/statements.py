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

# ADL's vocabulary (http://adlnet.gov/expapi/verbs/), and for an award the xAPI registry's
# `earned` ("the actor has earned or has been awarded the object", registry.tincanapi.com).
VERBS = {
    "answered": "http://adlnet.gov/expapi/verbs/answered",
    "completed": "http://adlnet.gov/expapi/verbs/completed",
    "earned": "http://id.tincanapi.com/verb/earned",
}
ACTIVITY_TYPES = {
    "question": "http://adlnet.gov/expapi/activities/question",
    "lesson": "http://adlnet.gov/expapi/activities/lesson",
    "course": "http://adlnet.gov/expapi/activities/course",
    # Activity Streams' "badge or award granted to an object (typically a person)": an
    # achievement, and a level reached.
    "badge": "http://activitystrea.ms/schema/1.0/badge",
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


def _statement(
    *,
    statement: uuid.UUID,
    site: str,
    user_id: int,
    verb: str,
    obj: dict[str, Any],
    at: datetime,
    result: dict[str, Any] | None = None,
    context: dict[str, Any] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(statement),
        "actor": _actor(home_page=site, user_id=user_id),
        "verb": {"id": VERBS[verb], "display": {"en-US": verb}},
        "object": obj,
    }
    if result is not None:
        body["result"] = result
    if context is not None:
        body["context"] = context
    body["timestamp"] = _timestamp(at)
    return body


def _duration(duration_ms: int | None) -> dict[str, str]:
    return {} if duration_ms is None else {"duration": f"PT{duration_ms / 1000:.2f}S"}


def answered(
    *,
    statement: uuid.UUID,
    site: str,
    user_id: int,
    check_id: int,
    lesson_slug: str,
    correct: bool,
    at: datetime,
    duration_ms: int | None,
    first_try: bool | None = None,
    review_rating: str | None = None,
) -> dict[str, Any]:
    """A learner answered one of a lesson's checks: `result.success` is whether it was right.
    In the lesson, the extension `first-try` says whether it was their first answer; on the
    Review page (a due card), `review-rating` is FSRS's rating of the review (again, hard,
    good, easy): the same question, told apart by its extension."""
    extensions = {"first-try": first_try, "review-rating": review_rating}
    lesson = _activity(site=site, kind="lesson", path=f"/lessons/{lesson_slug}", name=lesson_slug)
    return _statement(
        statement=statement,
        site=site,
        user_id=user_id,
        verb="answered",
        obj=_activity(
            site=site,
            kind="question",
            path=f"/lessons/{lesson_slug}#check-{check_id}",
            name=f"Check {check_id} of {lesson_slug}",
        ),
        result={
            "success": correct,
            **_duration(duration_ms),
            "extensions": {
                f"{site}/xapi/{name}": value
                for name, value in extensions.items()
                if value is not None
            },
        },
        context={"contextActivities": {"parent": [lesson]}},
        at=at,
    )


def completed(
    *, statement: uuid.UUID, site: str, user_id: int, lesson_slug: str, at: datetime
) -> dict[str, Any]:
    """A learner completed a lesson (passed all its checks)."""
    return _statement(
        statement=statement,
        site=site,
        user_id=user_id,
        verb="completed",
        obj=_activity(site=site, kind="lesson", path=f"/lessons/{lesson_slug}", name=lesson_slug),
        result={"completion": True, "success": True},
        at=at,
    )


def earned_achievement(
    *, statement: uuid.UUID, site: str, user_id: int, slug: str, title: str, at: datetime
) -> dict[str, Any]:
    """A learner unlocked an achievement (a badge)."""
    return _statement(
        statement=statement,
        site=site,
        user_id=user_id,
        verb="earned",
        obj=_activity(site=site, kind="badge", path=f"/achievements#{slug}", name=title),
        at=at,
    )


def earned_level(
    *,
    statement: uuid.UUID,
    site: str,
    user_id: int,
    number: int,
    name: str,
    xp_total: int,
    at: datetime,
) -> dict[str, Any]:
    """A learner reached a level of the XP curve; `xp-total` is their XP right after."""
    return _statement(
        statement=statement,
        site=site,
        user_id=user_id,
        verb="earned",
        obj=_activity(
            site=site, kind="badge", path=f"/levels/{number}", name=f"Level {number} · {name}"
        ),
        result={"extensions": {f"{site}/xapi/xp-total": xp_total}},
        at=at,
    )
