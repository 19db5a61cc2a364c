import time
from unittest import mock

import pytest

from achievements.models import Achievement
from achievements.tests.factories import AchievementFactory
from learning_platform.snapshots import TableSnapshot

pytestmark = pytest.mark.django_db


def _counting_snapshot() -> tuple[TableSnapshot, list[int]]:
    builds: list[int] = []

    def build() -> int:
        builds.append(1)
        return Achievement.objects.count()

    return TableSnapshot(Achievement, build, recheck_after=5), builds


def _later(seconds: float):
    return mock.patch.object(time, "monotonic", return_value=time.monotonic() + seconds)


def test_a_snapshot_is_trusted_until_its_recheck_time(django_assert_num_queries):
    snapshot, builds = _counting_snapshot()
    snapshot.get()

    with django_assert_num_queries(0):
        snapshot.get()
    assert len(builds) == 1


def test_an_unchanged_table_is_not_built_again_after_the_recheck():
    snapshot, builds = _counting_snapshot()
    snapshot.get()

    with _later(6):
        snapshot.get()

    assert len(builds) == 1


def test_a_changed_table_is_built_again_after_the_recheck():
    snapshot, builds = _counting_snapshot()
    before = snapshot.get()
    AchievementFactory()

    with _later(6):
        after = snapshot.get()

    assert (after, len(builds)) == (before + 1, 2)


def test_forget_builds_afresh_at_once():
    snapshot, builds = _counting_snapshot()
    snapshot.get()
    AchievementFactory()
    snapshot.forget()

    assert snapshot.get() == Achievement.objects.count()
    assert len(builds) == 2
