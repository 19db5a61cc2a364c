from django.apps import AppConfig


class LearningPlatformConfig(AppConfig):
    name = "learning_platform"
    verbose_name = "Platform"

    def ready(self) -> None:
        from learning_platform import (
            checks,  # noqa: F401  (registers the system check)
            history,
        )

        history.connect()
