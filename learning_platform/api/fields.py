"""Input fields that take from a JSON body only the JSON type the schema names.

DRF coerces: a CharField turns a number into its text, a BooleanField takes "true", "yes" or 1,
an IntegerField takes "5", a ChoiceField of numbers takes "20" for 20. In a JSON body that is a client's mistake the schema calls a wrong
type, so these fields answer 400 like any other (schemathesis found a report's honeypot field
accepting `0`, which then looked filled in). The API's input serializers use them; output
serializers and any library's keep DRF's fields as they are.
Query strings and form bodies are text by nature and keep DRF's parsing.
"""

from typing import Any

from django.http import QueryDict
from rest_framework import serializers


def _from_json(field: serializers.Field[Any, Any, Any, Any]) -> bool:
    data = getattr(field.root, "initial_data", None)
    return data is not None and not isinstance(data, QueryDict)


class StrictCharField(serializers.CharField):
    """Text, and only text in JSON. Its `max_length` counts what was sent, as the schema's
    `maxLength` does, not what is left once DRF has trimmed surrounding whitespace."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) and _from_json(self):
            self.fail("invalid")
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length, length=len(data))
        return super().to_internal_value(data)


class StrictRegexField(StrictCharField, serializers.RegexField):
    pass


class StrictEmailField(StrictCharField, serializers.EmailField):
    pass


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool) and _from_json(self):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        # bool is an int in Python, not in JSON.
        if (not isinstance(data, int) or isinstance(data, bool)) and _from_json(self):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    """One of the choices, as the JSON type it is: DRF takes any value whose text is a choice's
    (the daily goal took "20" for 20), and `true` for a choice of 1."""

    def to_internal_value(self, data: Any) -> Any:
        if _from_json(self) and not any(
            type(data) is type(choice) and data == choice for choice in self.choices
        ):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)
