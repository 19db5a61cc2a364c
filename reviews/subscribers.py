"""What reviews does when the apps below it announce something (learning_platform/hooks.py)."""

from exercises import events as exercise_events
from reviews import services


def subscribe() -> None:
    # Every answer to a check in its lesson makes or reviews the learner's card for it.
    exercise_events.check_answered.subscribe(services.record_lesson_answer)
