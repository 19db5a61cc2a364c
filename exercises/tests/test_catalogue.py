"""The reference catalogue: loading it, and how long a grading process trusts its copy."""

import time
from unittest import mock

import pytest

from exercises.services import grading_cache
from exercises.services.catalogue import load_reference_catalogue

pytestmark = pytest.mark.django_db


def test_load_reference_catalogue_is_idempotent(catalogue):
    assert load_reference_catalogue() == {"created": 0, "updated": 0, "unchanged": 34}


def test_the_catalogue_is_checked_again_after_a_few_seconds(catalogue, django_assert_num_queries):
    grading_cache.current_catalogue()
    with django_assert_num_queries(0):
        grading_cache.current_catalogue()

    with (
        mock.patch.object(time, "monotonic", return_value=time.monotonic() + 6) as clock,
        django_assert_num_queries(1),
    ):
        grading_cache.current_catalogue()
    clock.assert_called()
