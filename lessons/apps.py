from django.apps import AppConfig


class LessonsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lessons"

    def ready(self) -> None:
        # Imported here: models, and the modules importing them, need the app registry.
        from learning_platform import versioned
        from lessons import selectors, subscribers  # import models: after setup
        from lessons.models import Block, Lesson, Link, Quest, Tag, Unit

        subscribers.subscribe()
        # Public pages show all of these: a change rebuilds them.
        versioned.bump_on_change(Quest, Unit, Lesson, Block, Link, Tag, Lesson.tags.through)
        # A scheduled lesson appears at its time, whether or not the beat task has run.
        versioned.bump_when_due(Lesson, next_due=selectors.next_publish_at)
