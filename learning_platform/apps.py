from django.apps import AppConfig


class LearningPlatformConfig(AppConfig):
    name = "learning_platform"

    def ready(self) -> None:
        from learning_platform import page_cache

        page_cache.connect_signals()
