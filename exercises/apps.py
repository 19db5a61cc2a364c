from django.apps import AppConfig


class ExercisesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "exercises"

    def ready(self) -> None:
        # Imported here: models, and the modules importing them, need the app registry.
        from exercises.models import Exercise
        from learning_platform import versioned

        # The lesson page shows its exercise: a change rebuilds the public pages.
        versioned.bump_on_change(Exercise)
