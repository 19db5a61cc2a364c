import pytest
import time_machine

# Streaks, "today" and the leaderboards' periods count days in the learner's (or UTC) calendar:
# the tests that depend on them run at this instant, whatever the day and hour the suite runs.
FROZEN_NOW = "2026-03-11 10:00:00+00:00"


@pytest.fixture
def frozen_clock():
    with time_machine.travel(FROZEN_NOW, tick=False):
        yield
