import pytest
import time_machine


@pytest.fixture
def no_seed(db):
    """Start from no achievements: the ten seeded by the data migration would unlock too."""
    from achievements.models import Achievement

    Achievement.objects.all().delete()


@pytest.fixture
def frozen_clock():
    """Streak rules count the learner's days: the same instant whatever the day and hour the
    suite runs."""
    with time_machine.travel("2026-03-11 10:00:00+00:00", tick=False):
        yield
