from functools import partial
from typing import Any

from django.apps import AppConfig
from django.db import transaction

from learning_platform.db import grows_with_learners

VISIBILITY_FIELDS = frozenset({"is_active", "show_on_leaderboard"})


class ProgressConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "progress"

    def ready(self) -> None:
        # Imported here: models, and the modules importing them, need the app registry.
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from accounts import events as account_events
        from accounts.models import User
        from learning_platform import metrics, versioned
        from progress import boards, models, personal_data

        account_events.account_data_asked.subscribe(personal_data.export)

        metrics.LEADERBOARD_REBUILD_AGE.hook.subscribe(boards.rebuild_age_samples)

        # The learners themselves, and what progress keeps per learner.
        grows_with_learners(
            get_user_model(),
            models.XPAward,
            models.LessonCompletion,
            models.LearnerStats,
            models.LearnerDayXP,
            models.LearnerPeriodXP,
            models.ActivityDay,
        )

        # The level curve and every learner's header show the levels.
        versioned.bump_on_change(models.Level)

        def visibility_changed(
            *, instance: User, created: bool, update_fields: frozenset[str] | None, **kwargs: Any
        ) -> None:
            if not boards.enabled():
                return
            if update_fields is not None and not VISIBILITY_FIELDS & set(update_fields):
                return
            visible = bool(instance.is_active and instance.show_on_leaderboard)
            if created and visible:
                return  # nothing to show yet, nothing to hide
            transaction.on_commit(
                partial(boards.refresh_learner, user_id=instance.pk, visible=visible)
            )

        # Opting out of the leaderboard, or a deactivation, hides the learner on every board.
        post_save.connect(
            visibility_changed,
            sender=settings.AUTH_USER_MODEL,
            weak=False,
            dispatch_uid="progress.leaderboard_visibility",
        )
