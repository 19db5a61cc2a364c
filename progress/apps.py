from functools import partial

from django.apps import AppConfig
from django.db import transaction

from learning_platform.db import grows_with_learners

VISIBILITY_FIELDS = frozenset({"is_active", "show_on_leaderboard"})


class ProgressConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "progress"

    def ready(self) -> None:
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from progress import boards, models, summary_cache

        # The learners themselves, and what progress keeps per learner.
        grows_with_learners(
            get_user_model(),
            models.XPAward,
            models.LessonCompletion,
            models.LearnerStats,
            models.LearnerDayXP,
            models.ActivityDay,
        )

        def content_changed(**kwargs) -> None:
            summary_cache.note_content_changed()

        # What every learner's progress header counts: invalidate the cached headers. (Apps
        # above progress that add counts tell it through services.note_content_changed.)
        for model in ("progress.Level", "lessons.Lesson", "lessons.Quest"):
            for signal in (post_save, post_delete):
                signal.connect(content_changed, sender=model, weak=False)

        def visibility_changed(*, instance, created: bool, update_fields, **kwargs) -> None:
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
