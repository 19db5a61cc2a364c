"""Text fields take JSON strings only.

DRF's CharField (and EmailField, SlugField, URLField, RegexField built on it) turns a number
into its text: `{"website": 0}` became "0". The schema says "string", so a number is a
client's mistake and answers 400 like any other wrong type (schemathesis found a report's
honeypot field silently accepting one, which then looked filled in).
"""

from rest_framework import fields

_to_internal_value = fields.CharField.to_internal_value


def _strings_only(self, data):
    if not isinstance(data, str):
        self.fail("invalid")
    return _to_internal_value(self, data)


def refuse_non_string_text() -> None:
    fields.CharField.to_internal_value = _strings_only
