from django.apps import AppConfig

from learning_platform.db import grows_with_learners


class LtiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lti"
    verbose_name = "LTI tool"

    def ready(self) -> None:
        # Imported here: models, and the modules importing them, need the app registry.
        from accounts import events as account_events
        from exercises import events as exercise_events
        from lti import personal_data, services
        from lti.models import GradeLink, LtiAccount, ScorePost, UsedNonce

        # A check passed in a lesson launched from a platform sends the lesson's score.
        exercise_events.check_answered.subscribe(services.score_check_answer)
        grows_with_learners(LtiAccount, GradeLink, ScorePost, UsedNonce)
        # A deleted account's platform identity goes (accounts.services.purge_account).
        account_events.account_purged.subscribe(personal_data.purge)
