"""The suite's own isolation (conftest.py): what one test leaves, the next one finds."""

import pytest
from django.contrib.auth.models import Group

from achievements.models import Achievement


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_starts_with_the_seeds():
    assert Group.objects.filter(name="Content editors").exists()
    Group.objects.all().delete()


def test_a_test_after_a_transactional_one_finds_the_seeds(django_db_blocker):
    # pytest-django runs tests without a database last, so under -n 0 this one follows the
    # transactional test above (under -n, possibly on another worker: it holds there too).
    with django_db_blocker.unblock():
        assert Group.objects.filter(name="Content editors").exists()
        assert Achievement.objects.exists()
