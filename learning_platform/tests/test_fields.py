"""The strict input fields: a JSON body's values must have the JSON type the schema names; a
query string keeps DRF's parsing; DRF's own fields are left as DRF made them."""

import pytest
from django.http import QueryDict
from rest_framework import serializers

from learning_platform.api.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictEmailField,
    StrictIntegerField,
    StrictRegexField,
)


class Input(serializers.Serializer):
    text = StrictCharField(required=False, max_length=5)
    pattern = StrictRegexField(r"^[a-z]*$", required=False)
    email = StrictEmailField(required=False)
    flag = StrictBooleanField(required=False)
    number = StrictIntegerField(required=False)
    goal = StrictChoiceField(choices=[10, 20], required=False)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("text", 12),
        ("text", True),
        ("pattern", 1),
        ("email", 1.5),
        ("flag", "true"),
        ("flag", 1),
        ("number", "5"),
        ("number", True),
        ("number", 5.0),
    ],
)
def test_a_json_value_of_the_wrong_type_is_invalid(field, value):
    serializer = Input(data={field: value})

    assert not serializer.is_valid()
    assert serializer.errors[field][0].code == "invalid"


@pytest.mark.parametrize("value", ["20", 20.0, True])
def test_a_choice_is_taken_only_as_its_own_json_type(value):
    assert not Input(data={"goal": value}).is_valid()
    assert Input(data={"goal": 20}).is_valid()


def test_json_values_of_the_right_type_are_taken():
    serializer = Input(
        data={"text": " ab ", "pattern": "ab", "email": "a@b.example", "flag": False, "number": 5}
    )

    assert serializer.is_valid(), serializer.errors
    assert serializer.validated_data == {
        "text": "ab",
        "pattern": "ab",
        "email": "a@b.example",
        "flag": False,
        "number": 5,
    }


def test_a_query_string_keeps_drfs_parsing():
    serializer = Input(data=QueryDict("flag=true&number=5&text=12"))

    assert serializer.is_valid(), serializer.errors
    assert serializer.validated_data == {"flag": True, "number": 5, "text": "12"}


@pytest.mark.parametrize("data", [{"text": " abcde"}, QueryDict("text=abcde%20")])
def test_max_length_counts_what_was_sent_before_trimming(data):
    serializer = Input(data=data)

    assert not serializer.is_valid()
    assert serializer.errors["text"][0].code == "max_length"


def test_drfs_own_fields_still_coerce():
    class Stock(serializers.Serializer):
        text = serializers.CharField()
        flag = serializers.BooleanField()
        number = serializers.IntegerField()

    serializer = Stock(data={"text": 12, "flag": "true", "number": "5"})

    assert serializer.is_valid(), serializer.errors
    assert serializer.validated_data == {"text": "12", "flag": True, "number": 5}
