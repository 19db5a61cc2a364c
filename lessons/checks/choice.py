"""Choice checks: one or more right options, each explaining itself."""

from __future__ import annotations

from typing import Any

from lessons.checks.base import (
    MAX_OPTIONS,
    MIN_OPTIONS,
    CheckType,
    Grade,
    InvalidAnswer,
    as_text,
    item_id,
)


def errors(spec: dict[str, Any]) -> dict[str, str]:
    options = spec.get("options")
    if not isinstance(options, list) or not MIN_OPTIONS <= len(options) <= MAX_OPTIONS:
        return {"options": f"a choice check needs {MIN_OPTIONS} to {MAX_OPTIONS} options"}
    texts = []
    for number, option in enumerate(options, start=1):
        if not isinstance(option, dict):
            return {"options": f"option {number} must be a mapping with text and explanation"}
        unknown = sorted(set(option) - {"text", "correct", "explanation"})
        if unknown:
            return {"options": f"option {number}: {unknown[0]!r} is not a field of an option"}
        if not as_text(option.get("text")):
            return {"options": f"option {number} needs its text"}
        if not as_text(option.get("explanation")):
            return {"options": f"option {number} needs an explanation of why it is right or wrong"}
        if not isinstance(option.get("correct", False), bool):
            return {"options": f"option {number}: correct must be true or false"}
        texts.append(as_text(option["text"]))
    if len(set(texts)) != len(texts):
        return {"options": "two options have the same text"}
    if not any(option.get("correct") for option in options):
        return {"options": "no option is marked correct"}
    return {}


def _options(spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(item_id(spec["key"], as_text(option["text"])), option) for option in spec["options"]]


def public(spec: dict[str, Any]) -> dict[str, Any]:
    options = _options(spec)
    return {
        "multiple": sum(bool(o.get("correct")) for _, o in options) > 1,
        "options": [{"id": oid, "text": as_text(o["text"])} for oid, o in options],
    }


def grade(spec: dict[str, Any], answer: Any) -> Grade:
    chosen = answer.get("options") if isinstance(answer, dict) else None
    if not isinstance(chosen, list) or not chosen or not all(isinstance(c, str) for c in chosen):
        raise InvalidAnswer('A choice answer is {"options": ["<option id>", ...]}; pick one.')
    options = dict(_options(spec))
    unknown = [c for c in chosen if c not in options]
    if unknown:
        raise InvalidAnswer(f"{unknown[0]!r} is not an option of this check.")
    picked = set(chosen)
    right = {oid for oid, o in options.items() if o.get("correct")}
    correct = picked == right
    marks = {
        oid: {
            "correct": bool(options[oid].get("correct")),
            "explanation": options[oid]["explanation"],
        }
        for oid in (options if correct else sorted(picked))
    }
    feedback = [
        options[oid]["explanation"].strip()
        for oid in options
        if oid in picked and not options[oid].get("correct")
    ]
    if not correct and picked < right:
        feedback.append(f"Right so far, but {len(right - picked)} more option(s) are right too.")
    wrong = sorted(picked - right)
    return Grade(
        correct=correct,
        answer_key=",".join(sorted(picked)),
        feedback=[] if correct else feedback,
        mistake=f"option-{wrong[0]}" if wrong else None,
        marks=marks,
    )


def solution(spec: dict[str, Any]) -> dict[str, Any]:
    return {"options": [oid for oid, o in _options(spec) if o.get("correct")]}


def right_answer(spec: dict[str, Any]) -> dict[str, Any]:
    return solution(spec)


def mistake_answers(spec: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    return [
        ({"options": [oid]}, o["explanation"].strip())
        for oid, o in _options(spec)
        if not o.get("correct")
    ]


TYPE = CheckType(errors, public, grade, solution, right_answer, mistake_answers)
