"""The learner's composite pages: the lesson page (the lesson, its exercise, its comment count)
and the quest outline with the learner's completion marks. It reads the apps below it through
their selectors; none of them knows it exists."""
