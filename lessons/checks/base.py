"""What every check type shares: limits, the grade, ids, numbers and text."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

CHECK_TYPES_ORDER = ("numeric", "choice", "ordering")
UNITS = (
    "parameters",
    "tokens",
    "dimensions",
    "heads",
    "layers",
    "bytes",
    "KB",
    "MB",
    "GB",
    "TB",
    "FLOPs",
    "percent",
    "seconds",
    "steps",
    "times",
    "bits",
    "experts",
    "positions",
    "GPUs",
    "days",
)
DEFAULT_REVEAL_AFTER = 3
MAX_REVEAL_AFTER = 20
MIN_ORDERING_ITEMS, MAX_ORDERING_ITEMS = 3, 8
MIN_OPTIONS, MAX_OPTIONS = 2, 8
MAX_TEXT = 2000
MAX_MISTAKES = 20
KEY_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# What a learner may type for a number: digits grouped by commas, spaces or underscores, a
# decimal point, an exponent; a trailing % for percentages.
_NUMBER = re.compile(r"^[+-]?(\d[\d,_ \u00a0\u202f]*)?(\.\d+)?([eE][+-]?\d+)?$")

COMMON_FIELDS = ("key", "type", "explanation", "reveal_after")
TYPE_FIELDS = {
    "numeric": ("answer", "tolerance", "relative_tolerance", "unit", "mistakes"),
    "choice": ("options",),
    "ordering": ("items",),
}


class InvalidAnswer(ValueError):
    """The answer cannot be read for this check (not counted as a try)."""


@dataclass(frozen=True)
class Grade:
    """How one answer fared. `answer_key` is the answer's canonical text (the analytics group
    equal answers by it); `mistake` names the editor's expected wrong answer it matched."""

    correct: bool
    answer_key: str
    feedback: list[str] = field(default_factory=list)
    mistake: str | None = None
    # Per option or item id: {"correct": bool, "explanation": str}, for the app to mark.
    marks: dict[str, dict[str, Any]] = field(default_factory=dict)


def item_id(key: str, text: str) -> str:
    """A stable, opaque id for an option or item: it tells nothing of its place or rightness."""
    return hashlib.sha256(f"{key}\x00{text}".encode()).hexdigest()[:10]


def parse_number(raw: Any) -> Decimal:
    """A learner's number: "12,288", "12288", "12 288" and "1.2288e4" read alike."""
    if isinstance(raw, bool):
        raise InvalidAnswer("Enter a number.")
    if isinstance(raw, int | float):
        if isinstance(raw, float) and not math.isfinite(raw):
            raise InvalidAnswer("Enter a finite number.")
        return Decimal(str(raw))
    if not isinstance(raw, str):
        raise InvalidAnswer("Enter a number.")
    text = raw.strip().rstrip("%").strip()
    if not text or len(text) > 60 or not _NUMBER.match(text) or not re.search(r"\d", text):
        raise InvalidAnswer(f"We could not read {raw.strip()[:60]!r} as a number.")
    try:
        value = Decimal(re.sub(r"[,_ \u00a0\u202f]", "", text))
    except InvalidOperation as exc:  # pragma: no cover - the pattern admits only numbers
        raise InvalidAnswer(f"We could not read {raw!r} as a number.") from exc
    if not value.is_finite():
        raise InvalidAnswer("Enter a finite number.")
    return value


def canonical(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "") else text


def as_number(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        return parse_number(value)
    except InvalidAnswer:
        return None


def as_text(value: Any) -> str:
    return str(value).strip() if isinstance(value, str | int | float) else ""


@dataclass(frozen=True)
class CheckType:
    errors: Callable[[dict[str, Any]], dict[str, str]]
    public: Callable[[dict[str, Any]], dict[str, Any]]
    grade: Callable[[dict[str, Any], Any], Grade]
    solution: Callable[[dict[str, Any]], dict[str, Any]]
    # For the content test: a right answer, and each expected mistake with its feedback.
    right_answer: Callable[[dict[str, Any]], dict[str, Any]]
    mistake_answers: Callable[[dict[str, Any]], list[tuple[dict[str, Any], str]]]


def clean_text(value: Any) -> Any:
    """Text as stored: line endings normalised, trailing spaces dropped, trimmed."""
    if not isinstance(value, str):
        return value
    lines = value.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip()
