from django.apps import AppConfig


class ExercisesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "exercises"

    def ready(self) -> None:
        from exercises.models import Submission
        from learning_platform.db import grows_with_learners

        grows_with_learners(Submission)
