"""An exercise as plain data (the `exercise:` key of a lesson file), and its validation.

No database here: the curriculum reader checks every file before anything is written.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

from rest_framework import serializers

from learning_platform.api.fields import StrictCharField
from learning_platform.plain_data import (
    ClosedSerializer,
    Text,
    flat_errors,
    slug_field,
    whole_number,
)

REFERENCE_FIELDS = (
    "d_model",
    "n_layers",
    "n_heads",
    "n_kv_heads",
    "vocab_size",
    "intermediate_size",
)
KINDS = ("table",)
MAX_COLUMNS = 32
MAX_HINT_LENGTH = 500


class SpecError(ValueError):
    """The spec is not a valid exercise; `problems` lists every reason."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def _name(**kwargs: Any) -> StrictCharField:
    return StrictCharField(max_length=60, **kwargs)


def _number(**kwargs: Any) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=None, decimal_places=None, **kwargs)


class KeyColumnSerializer(ClosedSerializer):
    name = _name(default="model")
    synonyms = serializers.ListField(child=_name(), default=list)

    def to_internal_value(self, data: Any) -> Any:
        # A plain name is short for {name: ...}.
        return super().to_internal_value({"name": data} if isinstance(data, str) else data)


class ColumnSerializer(ClosedSerializer):
    name = _name()
    field = serializers.ChoiceField(REFERENCE_FIELDS, required=False)
    synonyms = serializers.ListField(child=_name(), default=list)
    tolerance = _number(min_value=Decimal(0), default=Decimal(0))
    hint = StrictCharField(max_length=MAX_HINT_LENGTH, allow_blank=True, default="")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # The reference field defaults to the column's name, which must then be one.
        attrs.setdefault("field", attrs["name"])
        if attrs["field"] not in REFERENCE_FIELDS:
            raise serializers.ValidationError({"field": f"one of {list(REFERENCE_FIELDS)}"})
        return attrs


class ExerciseSpecSerializer(ClosedSerializer):
    slug = slug_field(max_length=100, required=False)
    title = StrictCharField(max_length=200)
    prompt = Text(max_length=20_000)
    kind = serializers.ChoiceField(KINDS, default="table")
    key_column = KeyColumnSerializer(default={"name": "model", "synonyms": []})
    # many=True hands max_length to the ListSerializer; the stubs do not know it.
    columns = ColumnSerializer(many=True, allow_empty=False, max_length=MAX_COLUMNS)  # type: ignore[call-arg]
    rows_required = whole_number(low=1, high=200, default=3)
    pass_mark = _number(min_value=Decimal(0), max_value=Decimal(1), default=Decimal("0.8"))
    xp = whole_number(low=0, high=10_000, default=50)

    def validate_columns(self, columns: list[dict[str, Any]]) -> list[dict[str, Any]]:
        twice = [name for name, n in Counter(c["name"] for c in columns).items() if n > 1]
        if twice:
            raise serializers.ValidationError(f"{twice[0]!r} appears twice")
        return columns


def clean_spec(spec: Any, *, default_slug: str) -> dict[str, Any]:
    """Validate an exercise spec and fill in its defaults; raise SpecError listing problems.

    The result has every key, in the shape `exercise_spec()` exports, so a load followed by
    an export gives back the same data.
    """
    serializer = ExerciseSpecSerializer(data=spec)
    if not serializer.is_valid():
        raise SpecError([f"{path}: {m}" for path, m in flat_errors(serializer.errors, "exercise")])
    data = serializer.validated_data
    # It holds every field but the slug (each is required or has a default), and no other key.
    return {
        "slug": default_slug,
        **data,
        "key_column": dict(data["key_column"]),
        "columns": [column_spec(**column) for column in data["columns"]],
        "pass_mark": float(data["pass_mark"].quantize(Decimal("0.01"))),
    }


def plain_number(value: Decimal) -> int | float:
    """A number as a file writes it: 2, not 2.0."""
    return int(value) if value == value.to_integral_value() else float(value)


def column_spec(
    *, name: str, field: str, synonyms: list[str], tolerance: Decimal, hint: str
) -> dict[str, Any]:
    """A column as a file writes it; `hint` only when the column has one, so files without
    hints stay as they are."""
    spec: dict[str, Any] = {
        "name": name,
        "field": field,
        "synonyms": list(synonyms),
        "tolerance": plain_number(tolerance),
    }
    if hint:
        spec["hint"] = hint
    return spec


# The example in the box (ExerciseDetail.example): a row no model has, named as made up, so it
# shows the shape of an answer without being one (issue 40: it was GPT-2's real figures).
EXAMPLE_MODEL = "my-made-up-model"


def example_table(*, key_column: str, columns: list[str]) -> str:
    """A CSV header in the exercise's own columns and one made-up row (111, 222, ...)."""
    values = [str(111 * n) for n in range(1, len(columns) + 1)]
    return f"{','.join([key_column, *columns])}\n{','.join([EXAMPLE_MODEL, *values])}"
