from django.apps import AppConfig

from learning_platform.db import grows_with_learners


class AchievementsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "achievements"

    def ready(self) -> None:
        from achievements import subscribers  # imports services, hence models: after setup
        from achievements.models import AchievementUnlock

        subscribers.subscribe()
        grows_with_learners(AchievementUnlock)
