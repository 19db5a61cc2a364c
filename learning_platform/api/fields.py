"""JSON bodies are typed as the schema says.

DRF coerces: a CharField (and EmailField, SlugField, URLField built on it) turns a number into
its text, a BooleanField takes "true", "yes" or 1, an IntegerField takes "5". In a JSON body
that is a client's mistake the schema calls a wrong type, so it answers 400 like any other
(schemathesis found a report's honeypot field accepting `0`, which then looked filled in).
A text's `max_length` counts what was sent, as the schema's `maxLength` does, not what is left
once DRF has trimmed surrounding whitespace.
Query strings and form bodies are text by nature and keep DRF's parsing.
"""

from django.http import QueryDict
from rest_framework import fields

_JSON_TYPES: dict[type[fields.Field], tuple[type, ...]] = {
    fields.CharField: (str,),
    fields.BooleanField: (bool,),
    fields.IntegerField: (int,),
}


def _from_json(field: fields.Field) -> bool:
    data = getattr(field.root, "initial_data", None)
    return data is not None and not isinstance(data, QueryDict)


def _typed(field_class: type[fields.Field], types: tuple[type, ...]):
    parse = field_class.to_internal_value

    def to_internal_value(self, data):
        wrong_type = not isinstance(data, types) or (bool not in types and isinstance(data, bool))
        if wrong_type and _from_json(self):
            self.fail("invalid")
        # The schema's maxLength counts what was sent, before DRF trims the whitespace.
        max_length = getattr(self, "max_length", None)
        if isinstance(data, str) and max_length is not None and len(data) > max_length:
            self.fail("max_length", max_length=max_length, length=len(data))
        return parse(self, data)

    return to_internal_value


def refuse_wrongly_typed_json() -> None:
    for field_class, types in _JSON_TYPES.items():
        field_class.to_internal_value = _typed(field_class, types)
