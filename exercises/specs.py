"""An exercise as plain data (the `exercise:` key of a lesson file), and its validation.

No Django here: the curriculum reader can check every file before anything is written.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

REFERENCE_FIELDS = (
    "d_model",
    "n_layers",
    "n_heads",
    "n_kv_heads",
    "vocab_size",
    "intermediate_size",
)
KINDS = ("table",)
SPEC_KEYS = {
    "slug",
    "title",
    "prompt",
    "kind",
    "key_column",
    "columns",
    "rows_required",
    "pass_mark",
    "xp",
}
REQUIRED_KEYS = {"title", "prompt", "columns"}
COLUMN_KEYS = {"name", "field", "synonyms", "tolerance"}
MAX_COLUMNS = 32
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class SpecError(ValueError):
    """The spec is not a valid exercise; `problems` lists every reason."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def clean_spec(spec: Any, *, default_slug: str) -> dict[str, Any]:
    """Validate an exercise spec and fill in its defaults; raise SpecError listing problems.

    The result has every key, in the shape `exercise_spec()` exports, so a load followed by
    an export gives back the same data.
    """
    problems: list[str] = []
    if not isinstance(spec, dict):
        raise SpecError(["exercise: must be a mapping"])
    unknown = set(spec) - SPEC_KEYS
    if unknown:
        problems.append(f"exercise: unknown keys {sorted(unknown)}")
    missing = REQUIRED_KEYS - set(spec)
    if missing:
        problems.append(f"exercise: missing keys {sorted(missing)}")

    slug = spec.get("slug", default_slug)
    if not isinstance(slug, str) or not _SLUG.match(slug) or len(slug) > 100:
        problems.append("exercise.slug: lowercase letters, digits and single hyphens")
    title = _text(spec, "title", 200, problems)
    prompt = _text(spec, "prompt", 20_000, problems)
    kind = spec.get("kind", "table")
    if kind not in KINDS:
        problems.append(f"exercise.kind: one of {list(KINDS)}")

    key = spec.get("key_column", {"name": "model"})
    if isinstance(key, str):
        key = {"name": key}
    key_name, key_synonyms = "model", []
    if not isinstance(key, dict) or set(key) - {"name", "synonyms"}:
        problems.append("exercise.key_column: a mapping {name, synonyms}")
    else:
        key_name = _name(key.get("name", "model"), "exercise.key_column.name", problems)
        key_synonyms = _synonyms(key.get("synonyms", []), "exercise.key_column", problems)

    columns = _columns(spec.get("columns", []), problems)
    rows_required = _integer(spec, "rows_required", 3, 1, 200, problems)
    xp = _integer(spec, "xp", 50, 0, 10_000, problems)
    pass_mark = _decimal(spec.get("pass_mark", 0.8), "exercise.pass_mark", problems)
    if pass_mark is not None and not (0 <= pass_mark <= 1):
        problems.append("exercise.pass_mark: between 0 and 1")
    if problems:
        raise SpecError(problems)
    return {
        "slug": slug,
        "title": title,
        "prompt": prompt,
        "kind": kind,
        "key_column": {"name": key_name, "synonyms": key_synonyms},
        "columns": columns,
        "rows_required": rows_required,
        "pass_mark": float(pass_mark.quantize(Decimal("0.01"))),
        "xp": xp,
    }


def _text(spec: dict, key: str, max_length: int, problems: list[str]) -> str:
    value = spec.get(key, "")
    if not isinstance(value, str) or not value.strip():
        problems.append(f"exercise.{key}: non-empty text")
        return ""
    if len(value) > max_length:
        problems.append(f"exercise.{key}: at most {max_length} characters")
    return value.strip() if key == "title" else value


def _name(value: Any, where: str, problems: list[str]) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 60:
        problems.append(f"{where}: a name of 1 to 60 characters")
        return ""
    return value.strip()


def _synonyms(value: Any, where: str, problems: list[str]) -> list[str]:
    if not isinstance(value, list) or not all(
        isinstance(s, str) and s.strip() and len(s) <= 60 for s in value
    ):
        problems.append(f"{where}.synonyms: a list of names")
        return []
    return [s.strip() for s in value]


def _integer(spec: dict, key: str, default: int, low: int, high: int, problems: list[str]) -> int:
    value = spec.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        problems.append(f"exercise.{key}: a whole number from {low} to {high}")
        return default
    return value


def _decimal(value: Any, where: str, problems: list[str]) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        problems.append(f"{where}: a number")
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        problems.append(f"{where}: a number")
        return None
    if not number.is_finite():
        problems.append(f"{where}: a number")
        return None
    return number


def _columns(raw: Any, problems: list[str]) -> list[dict[str, Any]]:
    if not isinstance(raw, list) or not raw:
        problems.append("exercise.columns: a non-empty list")
        return []
    if len(raw) > MAX_COLUMNS:
        problems.append(f"exercise.columns: at most {MAX_COLUMNS}")
    columns: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, column in enumerate(raw, start=1):
        where = f"exercise.columns[{index}]"
        if not isinstance(column, dict):
            problems.append(f"{where}: a mapping {{name, field, synonyms, tolerance}}")
            continue
        if set(column) - COLUMN_KEYS:
            problems.append(f"{where}: unknown keys {sorted(set(column) - COLUMN_KEYS)}")
        name = _name(column.get("name"), f"{where}.name", problems)
        if name in seen:
            problems.append(f"{where}.name: {name!r} appears twice")
        seen.add(name)
        field = column.get("field", name)
        if field not in REFERENCE_FIELDS:
            problems.append(f"{where}.field: one of {list(REFERENCE_FIELDS)}")
        tolerance = _decimal(column.get("tolerance", 0), f"{where}.tolerance", problems)
        if tolerance is not None and tolerance < 0:
            problems.append(f"{where}.tolerance: zero or more")
        columns.append(
            {
                "name": name,
                "field": field,
                "synonyms": _synonyms(column.get("synonyms", []), where, problems),
                "tolerance": _plain_number(tolerance),
            }
        )
    return columns


def _plain_number(value: Decimal | None) -> int | float:
    if value is None:
        return 0
    return int(value) if value == value.to_integral_value() else float(value)
