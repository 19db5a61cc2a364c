"""Grade a parsed table against the reference catalogue, cell by cell. Pure Python, no Django.

`grade(table, spec, catalogue)` answers a `GradeResult`:
- each submitted row is matched, by its model name, to a catalogue entry or to none;
- each asked-for cell of a recognised row is `correct`, `incorrect`, `missing` or
  `unparseable`; cells of rows that cannot be checked (unknown model, a repeated model, or a
  figure the catalogue lacks) are `unchecked` unless empty or not a number;
- the score is the share of right cells over the checked cells of the distinct recognised
  models, counting the cells of models still missing (up to `rows_required`) as not right,
  so one perfect row out of three required scores 1/3, not 1;
- it passes with at least `rows_required` distinct recognised models and a score of at least
  `pass_mark`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from exercises.matching import header_key, header_parts, model_key
from exercises.parsing import Table

CORRECT = "correct"
INCORRECT = "incorrect"
MISSING = "missing"
UNPARSEABLE = "unparseable"
UNCHECKED = "unchecked"
VERDICTS = (CORRECT, INCORRECT, MISSING, UNPARSEABLE, UNCHECKED)

# Headers every table exercise accepts for the model's name and for each figure: the names
# the figures have in the models' own config.json / params.json files, and the usual prose.
KEY_HEADERS = (
    "model",
    "model name",
    "name",
    "model id",
    "checkpoint",
    "repo",
    "repository",
    "hf repo",
    "hugging face repo",
    "llm",
)
FIELD_HEADERS: Mapping[str, tuple[str, ...]] = {
    "d_model": (
        "d_model",
        "hidden_size",
        "n_embd",
        "dim",
        "model_dim",
        "d_embed",
        "embedding dim",
        "embedding size",
        "embedding dimension",
        "hidden size",
        "width",
    ),
    "n_layers": (
        "n_layers",
        "num_hidden_layers",
        "n_layer",
        "num_layers",
        "layers",
        "number of layers",
        "depth",
        "blocks",
    ),
    "n_heads": (
        "n_heads",
        "num_attention_heads",
        "n_head",
        "num_heads",
        "heads",
        "attention heads",
        "number of heads",
    ),
    "n_kv_heads": (
        "n_kv_heads",
        "num_key_value_heads",
        "kv_heads",
        "key value heads",
        "num_kv_heads",
        "multi_query_group_num",
    ),
    "vocab_size": (
        "vocab_size",
        "n_vocab",
        "vocab",
        "vocabulary",
        "vocabulary size",
        "padded_vocab_size",
    ),
    "intermediate_size": (
        "intermediate_size",
        "n_inner",
        "ffn_dim",
        "ffn_hidden_size",
        "d_ff",
        "dff",
        "hidden_dim",
        "mlp_dim",
        "ffn",
        "ffn size",
        "ffn dim",
        "mlp size",
        "feed forward size",
        "feedforward dim",
    ),
}
MISSING_TEXT = frozenset(
    {
        "",
        "-",
        "--",
        "---",
        "\u2014",
        "\u2013",
        "n/a",
        "na",
        "none",
        "null",
        "nan",
        "?",
        "unknown",
        "tbd",
    }
)


@dataclass(frozen=True)
class ColumnSpec:
    name: str
    field: str
    synonyms: tuple[str, ...] = ()
    tolerance: float = 0.0


@dataclass(frozen=True)
class ExerciseSpec:
    columns: tuple[ColumnSpec, ...]
    key_column: str = "model"
    key_synonyms: tuple[str, ...] = ()
    rows_required: int = 3
    pass_mark: float = 0.8


@dataclass(frozen=True)
class ReferenceModel:
    name: str
    figures: Mapping[str, int | None]
    aliases: tuple[str, ...] = ()


class Catalogue:
    """The reference models, indexed by `model_key` of their names and aliases.

    A model's own name always wins over another model's alias with the same key.
    """

    def __init__(self, models: Iterable[ReferenceModel]):
        self.models: tuple[ReferenceModel, ...] = tuple(models)
        self._by_key: dict[str, ReferenceModel] = {}
        for model in self.models:
            self._by_key.setdefault(model_key(model.name), model)
        for model in self.models:
            for alias in model.aliases:
                self._by_key.setdefault(model_key(alias), model)
        # A name of no letters or digits has no key: it matches nothing.
        self._by_key.pop("", None)

    def match(self, name: str) -> ReferenceModel | None:
        return self._by_key.get(model_key(name)) if name else None


# Named tuples, not frozen dataclasses: a table of 10 rows makes 60 of them, and a frozen
# dataclass's __init__ costs several times a tuple's.
class CellResult(NamedTuple):
    column: str
    submitted: str
    verdict: str
    expected: int | None = None


class RowResult(NamedTuple):
    number: int
    name: str
    model: str | None
    duplicate: bool
    cells: tuple[CellResult, ...]


@dataclass(frozen=True)
class GradeResult:
    score: float
    passed: bool
    correct: int
    checked: int
    models_recognised: int
    rows: tuple[RowResult, ...]
    columns: Mapping[str, tuple[str, ...]]
    key_header: str | None
    summary: str
    unknown_names: tuple[str, ...] = field(default=())

    def as_feedback(self) -> dict[str, Any]:
        """JSON-ready feedback, expected values included (the API hides them until passed)."""
        return {
            "key_header": self.key_header,
            "columns": [{"name": n, "headers": list(h)} for n, h in self.columns.items()],
            "correct": self.correct,
            "checked": self.checked,
            "models_recognised": self.models_recognised,
            "rows": [
                {
                    "row": row.number,
                    "name": row.name,
                    "model": row.model,
                    "duplicate": row.duplicate,
                    "cells": [
                        {
                            "column": cell.column,
                            "submitted": cell.submitted,
                            "verdict": cell.verdict,
                            "expected": cell.expected,
                        }
                        for cell in row.cells
                    ],
                }
                for row in self.rows
            ],
        }


_GROUPED = re.compile(r"^[+-]?[0-9]{1,3}(?:[,' _\u00a0\u202f\u2009][0-9]{3})+(?:\.[0-9]+)?$")
_PLAIN = re.compile(r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?$")
_GROUP_SEPARATORS = re.compile(r"[,' _\u00a0\u202f\u2009]")
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)$")


@lru_cache(maxsize=8192)  # pure; learners' tables repeat the same figures
def read_number(text: str) -> float | str | None:
    """A cell's number; MISSING for an empty cell or placeholder; None when not a number.

    Accepts 4096, 4,096, 4 096 (also with a no-break or thin space), 4'096, 4_096, 4096.0,
    4.096e3, **4096**, `4096` and 4096 (hidden_size).
    """
    value = _TRAILING_NOTE.sub("", text.strip()).strip("*_`\"' ")
    if value.lower() in MISSING_TEXT:
        return MISSING
    if len(value) > 40:
        return None
    if _GROUPED.match(value):
        return float(_GROUP_SEPARATORS.sub("", value))
    if _PLAIN.match(value):
        number = float(value)
        return number if math.isfinite(number) else None
    return None


def grade(table: Table, spec: ExerciseSpec, catalogue: Catalogue) -> GradeResult:
    """Grade `table` for `spec` against `catalogue` (see the module's docstring)."""
    key_index, column_index = _assign_headers(table, spec)
    rows: list[RowResult] = []
    seen: set[str] = set()
    unknown: list[str] = []
    correct = checked = 0
    for number, row in enumerate(table.rows, start=1):
        name = row[key_index] if key_index is not None else ""
        model = catalogue.match(name)
        duplicate = model is not None and model.name in seen
        counted = model is not None and not duplicate
        if model is not None and counted:
            seen.add(model.name)
        elif model is None and name:
            unknown.append(name)
        cells = []
        for column in spec.columns:
            text = next((row[i] for i in column_index[column.name] if row[i]), "")
            cell = _grade_cell(column, text, model if counted else None)
            cells.append(cell)
            if counted and cell.verdict != UNCHECKED:
                checked += 1
                correct += cell.verdict == CORRECT
        rows.append(
            RowResult(
                number=number,
                name=name,
                model=model.name if model else None,
                duplicate=duplicate,
                cells=tuple(cells),
            )
        )
    shortfall = max(0, spec.rows_required - len(seen))
    denominator = checked + shortfall * len(spec.columns)
    score = correct / denominator if denominator else 0.0
    passed = (
        len(seen) >= spec.rows_required
        and denominator > 0
        and correct >= spec.pass_mark * denominator - 1e-9
    )
    columns = {c.name: tuple(table.headers[i] for i in column_index[c.name]) for c in spec.columns}
    key_header = table.headers[key_index] if key_index is not None else None
    return GradeResult(
        score=round(score, 4),
        passed=passed,
        correct=correct,
        checked=denominator,
        models_recognised=len(seen),
        rows=tuple(rows),
        columns=columns,
        key_header=key_header,
        unknown_names=tuple(unknown),
        summary=_summary(
            spec=spec,
            passed=passed,
            recognised=len(seen),
            unknown=unknown,
            correct=correct,
            denominator=denominator,
            missing_columns=[n for n, headers in columns.items() if not headers],
            key_found=key_index is not None,
        ),
    )


def _grade_cell(column: ColumnSpec, text: str, model: ReferenceModel | None) -> CellResult:
    value = read_number(text)
    if isinstance(value, str):  # MISSING
        return CellResult(column.name, text, MISSING)
    if value is None:
        return CellResult(column.name, text, UNPARSEABLE)
    expected = model.figures.get(column.field) if model is not None else None
    if expected is None:
        return CellResult(column.name, text, UNCHECKED)
    verdict = CORRECT if abs(value - expected) <= column.tolerance else INCORRECT
    return CellResult(column.name, text, verdict, expected)


def _assign_headers(
    table: Table, spec: ExerciseSpec
) -> tuple[int | None, dict[str, tuple[int, ...]]]:
    """Which submitted column holds the model name, and which hold each asked-for figure.

    Whole-header matches are settled first, then matches on a part of a header; each
    submitted column serves at most one purpose; columns nobody asked for are ignored. A
    figure may come from several columns (a JSON list mixing GPT-2's `n_embd` with Llama's
    `hidden_size`): each row takes the first of them that it fills.
    """
    key_names = _keys((spec.key_column, *spec.key_synonyms, *KEY_HEADERS))
    wanted = [
        (c.name, _keys((c.name, *c.synonyms, *FIELD_HEADERS.get(c.field, ()))))
        for c in spec.columns
    ]
    whole = [header_key(h) for h in table.headers]
    parts = [header_parts(h) for h in table.headers]
    key_index = next((i for i, k in enumerate(whole) if k in key_names), None)
    if key_index is None:
        key_index = next(
            (i for i, keys in enumerate(parts) if any(k in key_names for k in keys)), None
        )
    taken = {key_index}
    found: dict[str, list[int]] = {name: [] for name, _ in wanted}
    for name, keys in wanted:
        for index, key in enumerate(whole):
            if index not in taken and key in keys:
                found[name].append(index)
                taken.add(index)
    for name, keys in wanted:
        if found[name]:
            continue
        for index, header_keys in enumerate(parts):
            if index not in taken and any(k in keys for k in header_keys):
                found[name].append(index)
                taken.add(index)
    if key_index is None:
        # No header names the models: take the first free column of mostly words, not numbers.
        key_index = next(
            (
                i
                for i in range(len(table.headers))
                if i not in taken and _mostly_words(table.rows, i)
            ),
            None,
        )
    return key_index, {name: tuple(indices) for name, indices in found.items()}


@lru_cache(maxsize=1024)
def _keys(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(k for k in (header_key(n) for n in names) if k)


def _mostly_words(rows: Sequence[Sequence[str]], index: int) -> bool:
    values = [row[index] for row in rows if row[index]]
    words = sum(1 for v in values if read_number(v) is None)
    return bool(values) and words * 2 > len(values)


def _summary(
    *,
    spec: ExerciseSpec,
    passed: bool,
    recognised: int,
    unknown: list[str],
    correct: int,
    denominator: int,
    missing_columns: list[str],
    key_found: bool,
) -> str:
    if not key_found:
        return (
            f"No column of model names was found; head it “{spec.key_column}” and put one "
            "model per row."
        )
    sentences = []
    if passed:
        sentences.append(
            f"Passed: {correct} of {denominator} cells right across {recognised} models."
        )
    else:
        percent = f"{100 * correct / denominator:.0f}%" if denominator else "0%"
        sentences.append(
            f"{correct} of {denominator} cells right ({percent}) across {recognised} "
            f"recognised model{'s' if recognised != 1 else ''}."
        )
    if unknown:
        names = ", ".join(f"“{n[:60]}”" for n in unknown[:5]) + (" …" if len(unknown) > 5 else "")
        sentences.append(f"Not in the reference catalogue: {names}.")
    if missing_columns:
        sentences.append(
            "No column found for "
            + ", ".join(missing_columns)
            + "; name each column after the figure it holds (e.g. “hidden_size”)."
        )
    if not passed:
        needs = []
        if recognised < spec.rows_required:
            needs.append(f"{spec.rows_required} distinct recognised models")
        if denominator == 0 or correct < spec.pass_mark * denominator - 1e-9:
            needs.append(f"{spec.pass_mark * 100:.0f}% of the cells right")
        if needs:
            sentences.append("To pass you need " + " and ".join(needs) + ".")
    return " ".join(sentences)
