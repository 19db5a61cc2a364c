from django.apps import AppConfig

from learning_platform.db import grows_with_learners


class XapiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "xapi"
    verbose_name = "Learning records (xAPI)"

    def ready(self) -> None:
        # Imported here: models, and the modules importing them, need the app registry.
        from achievements import events as achievement_events
        from exercises import events as exercise_events
        from progress import events as progress_events
        from reviews import events as review_events
        from xapi import services
        from xapi.models import Statement

        # Each answer to a lesson's check is a statement (and the last check's pass, the
        # lesson's completion); so are a review answered, an achievement unlocked and a level
        # reached.
        exercise_events.check_answered.subscribe(services.record_check_answer)
        review_events.review_answered.subscribe(services.record_review)
        achievement_events.achievements_unlocked.subscribe(services.record_unlocks)
        progress_events.xp_paid.subscribe(services.record_levels_reached)
        grows_with_learners(Statement)
