import pytest
import time_machine
from django.conf import settings

from lessons.tests.factories import LessonFactory, QuestFactory

# Streaks, "today" and the leaderboards' periods count days in the learner's (or UTC) calendar:
# the tests that depend on them run at this instant, whatever the day and hour the suite runs.
FROZEN_NOW = "2026-03-11 10:00:00+00:00"


@pytest.fixture
def frozen_clock():
    with time_machine.travel(FROZEN_NOW, tick=False):
        yield


# Four lessons of 10 XP of the demo quest (test_goals, test_learner_day). The first lesson also unlocks the seeded "First token" achievement: 10 + 10 XP.
@pytest.fixture
def lessons(db):
    quest = QuestFactory(slug=settings.DEMO_QUEST_SLUG)
    return LessonFactory.create_batch(20, quest=quest, xp=10)[:4]  # far from any quest milestone
