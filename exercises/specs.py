"""An exercise as plain data (the `exercise:` key of a lesson file), and its validation.

No Django here: the curriculum reader can check every file before anything is written.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from learning_platform import plain_data

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

    def report(key: str, message: str) -> None:
        problems.append(f"exercise.{key}: {message}")

    slug = plain_data.slug(spec, "slug", report, max_length=100, default=default_slug)
    title = (plain_data.text(spec, "title", report, max_length=200) or "").strip()
    prompt = plain_data.text(spec, "prompt", report, max_length=20_000) or ""
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
    rows_required = plain_data.integer(spec, "rows_required", report, low=1, high=200, default=3)
    xp = plain_data.integer(spec, "xp", report, low=0, high=10_000, default=50)
    pass_mark = _decimal(spec.get("pass_mark", 0.8), "exercise.pass_mark", problems)
    if pass_mark is not None and not (0 <= pass_mark <= 1):
        problems.append("exercise.pass_mark: between 0 and 1")
    if problems:
        raise SpecError(problems)
    assert pass_mark is not None  # else _decimal reported a problem
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
