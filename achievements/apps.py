from django.apps import AppConfig

from learning_platform.db import grows_with_learners


class AchievementsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "achievements"

    def ready(self) -> None:
        # Imported here: models, and the modules importing them, need the app registry.
        from achievements import subscribers  # imports services, hence models: after setup
        from achievements.models import Achievement, AchievementUnlock
        from learning_platform import versioned

        subscribers.subscribe()
        # The catalogue and every learner's header show them: a change rebuilds those pages.
        versioned.bump_on_change(Achievement)
        grows_with_learners(AchievementUnlock)
