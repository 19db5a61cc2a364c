"""Checks: the questions a lesson asks, as blocks of kind "check".

Each check type is an entry of `CHECK_TYPES`: the rules its spec must satisfy, what learners
are shown of it (never the answer), how an answer is read and graded, and its solution. A
new type is a new entry, not a new branch in every caller. Grading here is pure (no
database): the exercises app records answers and pays XP, the admin and the curriculum
loader validate with the same rules.

A check block keeps its prompt in `Block.markdown` (rendered to `Block.html` like prose) and
the rest of its spec in `Block.spec`. Each type is a module of this package (`numeric`,
`choice`, `ordering`) exporting its `TYPE`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from lessons.checks import choice, numeric, ordering
from lessons.checks.base import (
    CHECK_TYPES_ORDER,
    COMMON_FIELDS,
    DEFAULT_REVEAL_AFTER,
    KEY_PATTERN,
    MAX_MISTAKES,
    MAX_OPTIONS,
    MAX_ORDERING_ITEMS,
    MAX_REVEAL_AFTER,
    MAX_TEXT,
    MIN_OPTIONS,
    MIN_ORDERING_ITEMS,
    TYPE_FIELDS,
    UNITS,
    CheckType,
    Grade,
    InvalidAnswer,
    as_text,
    clean_text,
    item_id,
    parse_number,
)

__all__ = [
    "CHECK_TYPES",
    "CHECK_TYPES_ORDER",
    "DEFAULT_REVEAL_AFTER",
    "MAX_MISTAKES",
    "MAX_OPTIONS",
    "MAX_ORDERING_ITEMS",
    "MAX_REVEAL_AFTER",
    "MAX_TEXT",
    "MIN_OPTIONS",
    "MIN_ORDERING_ITEMS",
    "UNITS",
    "CheckType",
    "Grade",
    "InvalidAnswer",
    "check_errors",
    "clean_check",
    "clean_text",
    "grade",
    "item_id",
    "parse_number",
    "public_check",
    "reveal_after",
    "solution",
]

CHECK_TYPES: dict[str, CheckType] = {
    "numeric": numeric.TYPE,
    "choice": choice.TYPE,
    "ordering": ordering.TYPE,
}


def check_errors(spec: Any) -> dict[str, str]:
    """{field: problem} for a check's spec (everything but its prompt); empty when valid."""
    if not isinstance(spec, dict):
        return {"check": "a check needs its key, type and the type's fields"}
    errors: dict[str, str] = {}
    key = spec.get("key")
    if not isinstance(key, str) or not KEY_PATTERN.match(key) or len(key) > 60:
        errors["key"] = "a check needs a key: lower-case words joined by hyphens, at most 60"
    kind = spec.get("type")
    if kind not in CHECK_TYPES:
        errors["type"] = f"unknown check type {kind!r}; expected one of {', '.join(CHECK_TYPES)}"
        return errors
    unknown = sorted(set(spec) - set(COMMON_FIELDS) - set(TYPE_FIELDS[kind]))
    if unknown:
        errors[unknown[0]] = f"not a field of a {kind} check"
    if not as_text(spec.get("explanation")):
        errors["explanation"] = "a check needs an explanation, shown once it is answered"
    elif len(as_text(spec["explanation"])) > MAX_TEXT:
        errors["explanation"] = f"at most {MAX_TEXT} characters"
    reveal = spec.get("reveal_after", DEFAULT_REVEAL_AFTER)
    if (
        isinstance(reveal, bool)
        or not isinstance(reveal, int)
        or not 1 <= reveal <= MAX_REVEAL_AFTER
    ):
        errors["reveal_after"] = f"reveal_after must be a whole number from 1 to {MAX_REVEAL_AFTER}"
    if "key" not in errors:
        errors.update(CHECK_TYPES[kind].errors(spec))
    return errors


def _stored_number(value: Any) -> Any:
    """A whole number written as a float (7.2e+23) stored as the integer it is: PostgreSQL's
    jsonb gives such a number back as an integer, so a spec must read the same from both
    databases, and a load of unchanged files change nothing."""
    if isinstance(value, float) and value.is_integer():
        return int(Decimal(repr(value)))
    return value


def clean_check(spec: dict[str, Any]) -> dict[str, Any]:
    """A valid spec as stored: defaults filled, texts trimmed, line endings normalised."""
    cleaned: dict[str, Any] = {
        "key": spec["key"],
        "type": spec["type"],
        "explanation": clean_text(spec["explanation"]),
    }
    if spec.get("reveal_after", DEFAULT_REVEAL_AFTER) != DEFAULT_REVEAL_AFTER:
        cleaned["reveal_after"] = spec["reveal_after"]
    if spec["type"] == "numeric":
        cleaned["answer"] = _stored_number(spec["answer"])
        for name in ("tolerance", "relative_tolerance"):
            if spec.get(name) not in (None, 0):
                cleaned[name] = _stored_number(spec[name])
        if spec.get("unit"):
            cleaned["unit"] = spec["unit"]
        if spec.get("mistakes"):
            cleaned["mistakes"] = [
                {
                    **{
                        name: _stored_number(m[name])
                        for name in ("value", "min", "max")
                        if name in m
                    },
                    "feedback": clean_text(m["feedback"]),
                }
                for m in spec["mistakes"]
            ]
    elif spec["type"] == "choice":
        cleaned["options"] = [
            {
                "text": clean_text(o["text"]),
                **({"correct": True} if o.get("correct") else {}),
                "explanation": clean_text(o["explanation"]),
            }
            for o in spec["options"]
        ]
    else:
        cleaned["items"] = [clean_text(item) for item in spec["items"]]
    return cleaned


def reveal_after(spec: dict[str, Any]) -> int:
    return int(spec.get("reveal_after", DEFAULT_REVEAL_AFTER))


def public_check(spec: dict[str, Any]) -> dict[str, Any]:
    """What a learner is shown of a check: never its answer, tolerances or feedback."""
    return {
        "key": spec["key"],
        "type": spec["type"],
        "reveal_after": reveal_after(spec),
        **CHECK_TYPES[spec["type"]].public(spec),
    }


def grade(spec: dict[str, Any], answer: Any) -> Grade:
    """Grade an answer to the check. Raises InvalidAnswer when it cannot be read."""
    return CHECK_TYPES[spec["type"]].grade(spec, answer)


def solution(spec: dict[str, Any]) -> dict[str, Any]:
    """The right answer, in the answer's own shape, for a reveal."""
    return CHECK_TYPES[spec["type"]].solution(spec)
