"""Exact query counts of the exercises' command endpoint: submitting a table.

The request's own queries, the same on SQLite and PostgreSQL; the grading it queues runs after
the commit (as a task) and is not part of the answer's cost.
"""

import pytest
from django.urls import reverse

from exercises.tests.conftest import GOOD_CSV

pytestmark = pytest.mark.django_db


def test_submitting_a_table_runs_five_queries(user_client, exercise, django_assert_num_queries):
    url = reverse("exercise-submissions", args=[exercise.id])

    # the exercise, its columns, and the submission's insert in a savepoint (3)
    with django_assert_num_queries(5):
        response = user_client.post(url, {"format": "csv", "content": GOOD_CSV}, format="json")

    assert response.status_code == 202
