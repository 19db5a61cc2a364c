"""Checking plain data read from files (YAML): DRF serializers with the API's strict fields,
and their nested errors as (field path, message) pairs, every problem at once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.settings import api_settings

from learning_platform.api.fields import StrictCharField, StrictIntegerField, StrictRegexField
from learning_platform.slugs import SLUG_PATTERN


class ClosedSerializer(serializers.Serializer[None]):
    """Refuses keys it has no field for: a misspelt key in a file must not pass unnoticed."""

    def to_internal_value(self, data: Any) -> Any:
        unknown: dict[str, Any] = {}
        if isinstance(data, Mapping):
            unknown = {str(key): ["unknown field"] for key in data.keys() - self.fields.keys()}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            # A Serializer's errors are a dict of fields; the stubs also allow a list.
            raise serializers.ValidationError({**exc.detail, **unknown}) from None  # type: ignore[dict-item]
        if unknown:
            raise serializers.ValidationError(unknown)
        return value


class Text(StrictCharField):
    """Text kept as written (a YAML block keeps its last line break), never blank unless
    `allow_blank`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        if not value.strip() and not self.allow_blank:
            self.fail("blank")
        return value


def whole_number(*, low: int, high: int, **kwargs: Any) -> StrictIntegerField:
    """An integer from `low` to `high` (true and false are not numbers here)."""
    message = f"must be a whole number from {low} to {high}"
    return StrictIntegerField(
        min_value=low,
        max_value=high,
        error_messages={"invalid": message, "min_value": message, "max_value": message},
        **kwargs,
    )


def slug_field(**kwargs: Any) -> StrictRegexField:
    """A slug (learning_platform.slugs)."""
    message = "must be lowercase letters, digits and single hyphens"
    return StrictRegexField(
        SLUG_PATTERN,
        trim_whitespace=False,
        error_messages={"invalid": message, "max_length": message},
        **kwargs,
    )


def flat_errors(detail: Any, path: str = "") -> list[tuple[str, str]]:
    """DRF's nested errors as (path, message): `title`, `blocks[1].kind`; "-" for the whole."""
    if isinstance(detail, dict):
        items: Any = detail.items()
    elif isinstance(detail, list) and not all(isinstance(item, str) for item in detail):
        items = enumerate(detail)  # a list of objects: one entry per item, {} where valid
    else:
        return [(path or "-", str(m)) for m in (detail if isinstance(detail, list) else [detail])]
    found: list[tuple[str, str]] = []
    for key, sub in items:
        if isinstance(key, int):
            name = f"{path}[{key + 1}]"
        elif key == api_settings.NON_FIELD_ERRORS_KEY:
            name = path
        else:
            name = f"{path}.{key}" if path else str(key)
        found += flat_errors(sub, name)
    return found
