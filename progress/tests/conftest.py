import pytest
import time_machine
from django.conf import settings

from lessons.tests.factories import LessonFactory, QuestFactory
from progress import events

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


@pytest.fixture
def ledger_alone(monkeypatch):
    """Nobody hears `xp_paid`: the ledger's own statements, counted without its subscribers'
    (the leagues count theirs in their own tests)."""
    monkeypatch.setattr(events.xp_paid, "_subscribers", [])
