"""Numeric checks: one number, within a tolerance; feedback for expected wrong values."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from lessons.checks.base import (
    MAX_MISTAKES,
    UNITS,
    CheckType,
    Grade,
    InvalidAnswer,
    as_number,
    as_text,
    canonical,
    parse_number,
)


def errors(spec: dict[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    answer = as_number(spec.get("answer"))
    if answer is None:
        errors["answer"] = "a numeric check needs its answer, a number"
    tolerance = spec.get("tolerance", 0)
    relative = spec.get("relative_tolerance")
    tol = as_number(tolerance if tolerance is not None else 0)
    if tol is None or tol < 0:
        errors["tolerance"] = "the tolerance must be a number of zero or more"
    if relative is not None:
        rel = as_number(relative)
        if rel is None or rel < 0 or rel > 1:
            errors["relative_tolerance"] = "the relative tolerance must be between 0 and 1"
        elif tol is not None and tol > 0:
            errors["relative_tolerance"] = "give a tolerance or a relative tolerance, not both"
    unit = spec.get("unit") or ""
    if unit and unit not in UNITS:
        errors["unit"] = f"unknown unit {unit!r}; use one of {', '.join(UNITS)}"
    mistakes = spec.get("mistakes") or []
    if not isinstance(mistakes, list) or len(mistakes) > MAX_MISTAKES:
        errors["mistakes"] = f"mistakes must be a list of at most {MAX_MISTAKES}"
        return errors
    for number, mistake in enumerate(mistakes, start=1):
        problem = _mistake_error(mistake, spec if not errors else None)
        if problem:
            errors["mistakes"] = f"mistake {number}: {problem}"
            break
    return errors


def _mistake_error(mistake: Any, spec: dict[str, Any] | None) -> str | None:
    if not isinstance(mistake, dict):
        return "must be a mapping with value (or min/max) and feedback"
    unknown = sorted(set(mistake) - {"value", "min", "max", "feedback"})
    if unknown:
        return f"{unknown[0]!r} is not a field of a mistake"
    if not as_text(mistake.get("feedback")):
        return "needs its feedback"
    if "value" in mistake and ("min" in mistake or "max" in mistake):
        return "give a value or a range (min, max), not both"
    bounds = [mistake[name] for name in ("value", "min", "max") if name in mistake]
    if not bounds or any(as_number(bound) is None for bound in bounds):
        return "needs a value, or min and/or max, as numbers"
    low, high = _mistake_range(mistake)
    if low > high:
        return "min is above max"
    if spec is not None and _numeric_correct(spec, low if "value" in mistake else None):
        return "its value is accepted as right"
    return None


def _mistake_range(mistake: dict[str, Any]) -> tuple[Decimal, Decimal]:
    if "value" in mistake:
        value = parse_number(mistake["value"])
        return value, value
    low = parse_number(mistake["min"]) if "min" in mistake else Decimal("-Infinity")
    high = parse_number(mistake["max"]) if "max" in mistake else Decimal("Infinity")
    return low, high


def _numeric_correct(spec: dict[str, Any], value: Decimal | None) -> bool:
    if value is None:
        return False
    answer = parse_number(spec["answer"])
    relative = spec.get("relative_tolerance")
    if relative is not None:
        allowed = abs(answer) * parse_number(relative)
    else:
        allowed = parse_number(spec.get("tolerance") or 0)
    return abs(value - answer) <= allowed


def public(spec: dict[str, Any]) -> dict[str, Any]:
    return {"unit": spec.get("unit") or ""}


def grade(spec: dict[str, Any], answer: Any) -> Grade:
    if not isinstance(answer, dict) or "value" not in answer:
        raise InvalidAnswer('A numeric answer is {"value": "<a number>"}.')
    value = parse_number(answer["value"])
    key = canonical(value)
    if _numeric_correct(spec, value):
        return Grade(correct=True, answer_key=key)
    for number, mistake in enumerate(spec.get("mistakes") or [], start=1):
        low, high = _mistake_range(mistake)
        if low <= value <= high:
            return Grade(
                correct=False,
                answer_key=key,
                feedback=[mistake["feedback"].strip()],
                mistake=f"mistake-{number}",
            )
    return Grade(correct=False, answer_key=key)


def solution(spec: dict[str, Any]) -> dict[str, Any]:
    return {"value": canonical(parse_number(spec["answer"])), "unit": spec.get("unit") or ""}


def right_answer(spec: dict[str, Any]) -> dict[str, Any]:
    return {"value": str(spec["answer"])}


def mistake_answers(spec: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """An answer in each expected mistake, with the feedback it must get."""
    answers = []
    for mistake in spec.get("mistakes") or []:
        low, high = _mistake_range(mistake)
        value = low if low.is_finite() else high
        answers.append(({"value": canonical(value)}, mistake["feedback"].strip()))
    return answers


TYPE = CheckType(errors, public, grade, solution, right_answer, mistake_answers)
