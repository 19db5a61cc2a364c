from django.apps import AppConfig

from learning_platform.db import grows_with_learners


class ReviewsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "reviews"

    def ready(self) -> None:
        # Imported here: models, and the modules importing them, need the app registry.
        from reviews import subscribers  # imports services, hence models: after setup
        from reviews.models import ReviewCard, ReviewLog

        subscribers.subscribe()

        # Imports models: after setup, like the subscribers above.
        from accounts import events as account_events
        from reviews import personal_data

        account_events.account_data_asked.subscribe(personal_data.export)
        grows_with_learners(ReviewCard, ReviewLog)
