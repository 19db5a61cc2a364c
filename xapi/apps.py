from django.apps import AppConfig

from learning_platform.db import grows_with_learners


class XapiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "xapi"
    verbose_name = "Learning records (xAPI)"

    def ready(self) -> None:
        # Imported here: models, and the modules importing them, need the app registry.
        from exercises import events as exercise_events
        from xapi import services
        from xapi.models import Statement

        # Each answer to a lesson's check is a statement (and the last check's pass, the
        # lesson's completion).
        exercise_events.check_answered.subscribe(services.record_check_answer)
        grows_with_learners(Statement)
