from django.apps import AppConfig

from learning_platform.db import grows_with_learners


class ExercisesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "exercises"

    def ready(self) -> None:
        from exercises.models import Submission

        grows_with_learners(Submission)
