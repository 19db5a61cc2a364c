"""A synced answer's fields are the JSON types the schema names (issue 41, item 6: the same
shape as the daily goal that took "20" for 20): `"revealed": "false"` is not `false`."""

import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("field", "value"), [("check", "1"), ("revealed", "false"), ("revealed", 0)]
)
def test_a_synced_answer_field_of_the_wrong_json_type_answers_400(user_client, field, value):
    answer = {
        "id": str(uuid.uuid4()),
        "check": 1,
        "answer": {"value": "1"},
        "answered_at": (timezone.now() - timedelta(minutes=5)).isoformat(),
        "revealed": False,
        field: value,
    }

    response = user_client.post(
        reverse("me-checks-sync"), {"device_id": "phone", "answers": [answer]}, format="json"
    )

    assert response.status_code == 400, response.content
    assert response.json()["type"] == "validation_error"
