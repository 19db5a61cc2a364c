"""The versioned-read decorator: a value is reused while its versions stand, rebuilt after a
bump."""

import pytest
from django.core.cache import cache

from learning_platform import versioned

pytestmark = pytest.mark.django_db


@pytest.fixture
def builds():
    return []


@pytest.fixture
def read(builds):
    @versioned.cached(key=lambda *, name: f"test:greeting:{name}", versions=lambda *, name: [name])
    def greeting(*, name: str) -> str:
        builds.append(name)
        return f"hello {name} #{len(builds)}"

    return greeting


def test_a_value_is_reused_until_its_version_is_bumped(read, builds):
    assert read(name="ada") == "hello ada #1"
    assert read(name="ada") == "hello ada #1"

    versioned.bump("ada")

    assert read(name="ada") == "hello ada #2"
    assert builds == ["ada", "ada"]


def test_a_bump_inside_a_transaction_happens_again_after_the_commit(
    read, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        versioned.bump("ada")

    assert [versioned.is_version_bump(callback) for callback in callbacks] == [True]


def test_a_missing_version_is_started_by_the_read_that_missed_it(read):
    read(name="ada")

    assert cache.get("ada") is not None


def test_with_the_page_cache_off_every_read_builds(read, builds, settings):
    settings.PAGE_CACHE = False

    read(name="ada")
    read(name="ada")

    assert builds == ["ada", "ada"]
