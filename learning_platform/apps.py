from django.apps import AppConfig


class LearningPlatformConfig(AppConfig):
    name = "learning_platform"
    verbose_name = "Platform"

    def ready(self) -> None:
        from learning_platform import checks  # noqa: F401  (registers the system check)
        from learning_platform.api.fields import refuse_wrongly_typed_json

        refuse_wrongly_typed_json()
