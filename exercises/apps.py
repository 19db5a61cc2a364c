from django.apps import AppConfig

from learning_platform.db import grows_with_learners


class ExercisesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "exercises"

    def ready(self) -> None:
        # Imported here: models, and the modules importing them, need the app registry.
        from exercises import subscribers
        from exercises.models import Exercise, Submission
        from learning_platform import versioned

        subscribers.subscribe()

        # The lesson page shows its exercise: a change rebuilds the public pages.
        versioned.bump_on_change(Exercise)
        grows_with_learners(Submission)
