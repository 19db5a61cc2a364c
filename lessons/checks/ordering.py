"""Ordering checks: 3 to 8 items to put in order."""

from __future__ import annotations

from typing import Any

from lessons.checks.base import (
    MAX_ORDERING_ITEMS,
    MIN_ORDERING_ITEMS,
    CheckType,
    Grade,
    InvalidAnswer,
    as_text,
    item_id,
)


def errors(spec: dict[str, Any]) -> dict[str, str]:
    items = spec.get("items")
    if not isinstance(items, list) or not MIN_ORDERING_ITEMS <= len(items) <= MAX_ORDERING_ITEMS:
        return {
            "items": f"an ordering needs {MIN_ORDERING_ITEMS} to {MAX_ORDERING_ITEMS} items, "
            "written in the right order"
        }
    texts = [as_text(item) for item in items]
    if not all(texts):
        return {"items": "every item needs its text"}
    if len(set(texts)) != len(texts):
        return {"items": "two items are alike; learners could not tell them apart"}
    return {}


def _items(spec: dict[str, Any]) -> list[str]:
    return [item_id(spec["key"], as_text(item)) for item in spec["items"]]


def public(spec: dict[str, Any]) -> dict[str, Any]:
    texts = {item_id(spec["key"], as_text(item)): as_text(item) for item in spec["items"]}
    right = _items(spec)
    # Shown in the order of their ids: fixed, and unrelated to the right one. The app
    # shuffles them again per learner.
    shown = sorted(right)
    if shown == right:
        shown = shown[1:] + shown[:1]
    return {"items": [{"id": iid, "text": texts[iid]} for iid in shown]}


def grade(spec: dict[str, Any], answer: Any) -> Grade:
    order = answer.get("items") if isinstance(answer, dict) else None
    right = _items(spec)
    if not isinstance(order, list) or sorted(map(str, order)) != sorted(right):
        raise InvalidAnswer(
            'An ordering answer is {"items": [...]}: every item of the check, once each.'
        )
    in_place = sum(a == b for a, b in zip(order, right, strict=True))
    correct = in_place == len(right)
    return Grade(
        correct=correct,
        answer_key=",".join(order),
        feedback=[] if correct else [f"{in_place} of {len(right)} items are in the right place."],
        marks={iid: {"correct": iid == right[i]} for i, iid in enumerate(order)},
    )


def solution(spec: dict[str, Any]) -> dict[str, Any]:
    return {"items": _items(spec)}


def right_answer(spec: dict[str, Any]) -> dict[str, Any]:
    return solution(spec)


def mistake_answers(spec: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    right = _items(spec)
    swapped = [right[1], right[0], *right[2:]]
    return [({"items": swapped}, f"{len(right) - 2} of {len(right)} items are in the right place.")]


TYPE = CheckType(errors, public, grade, solution, right_answer, mistake_answers)
