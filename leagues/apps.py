from django.apps import AppConfig

from learning_platform.db import grows_with_learners


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = "Weekly leagues"

    def ready(self) -> None:
        # Imported here: models, and the modules importing them, need the app registry.
        from accounts import events as account_events
        from leagues import personal_data, services
        from leagues.models import Leaguer, Membership
        from progress import events as progress_events

        # League XP is the ledger's XP: written in each award's transaction.
        progress_events.xp_paid.subscribe(services.record_league_xp)
        grows_with_learners(Leaguer, Membership)
        # The learner's copy of their data holds their league rows (nothing is purged: they
        # hold ids, numbers and dates, no text about the learner).
        account_events.account_data_asked.subscribe(personal_data.export)
