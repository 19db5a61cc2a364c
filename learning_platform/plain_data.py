"""Checking plain data read from files (YAML, JSON) field by field, reporting every problem
instead of stopping at the first: the curriculum's files and the exercise specs in them.

Each check reads one key of a mapping; a missing key gives `default` without a problem (the
caller names missing keys its own way); a bad value is reported as (key, message) and gives
`default` too. The caller decides where a problem is filed (a file and field, a prefix).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from learning_platform.slugs import SLUG_RE

Report = Callable[[str, str], None]


def text(
    data: dict[str, Any],
    key: str,
    report: Report,
    *,
    allow_empty: bool = False,
    max_length: int | None = None,
    default: str | None = None,
) -> str | None:
    """A string; blank only with `allow_empty` (then null reads as "")."""
    if key not in data:
        return default
    value = data[key]
    if value is None and allow_empty:
        return ""
    if not isinstance(value, str) or (not allow_empty and not value.strip()):
        report(key, "must be non-empty text")
        return default
    if max_length and len(value) > max_length:
        report(key, f"at most {max_length} characters")
        return default
    return value


def integer(
    data: dict[str, Any],
    key: str,
    report: Report,
    *,
    low: int,
    high: int,
    default: int | None = None,
) -> int | None:
    """A whole number from `low` to `high` (true and false are not numbers here)."""
    if key not in data:
        return default
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        report(key, f"must be a whole number from {low} to {high}")
        return default
    return value


def slug(
    data: dict[str, Any],
    key: str,
    report: Report,
    *,
    max_length: int | None = None,
    default: str | None = None,
) -> str | None:
    """A slug (learning_platform.slugs), at most `max_length` characters."""
    if key not in data:
        return default
    value = data[key]
    if (
        not isinstance(value, str)
        or not SLUG_RE.match(value)
        or (max_length is not None and len(value) > max_length)
    ):
        report(key, "must be lowercase letters, digits and single hyphens")
        return default
    return value
