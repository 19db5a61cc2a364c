from django.apps import AppConfig


class LearningPlatformConfig(AppConfig):
    name = "learning_platform"
    verbose_name = "Platform"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from learning_platform import (
            checks,  # noqa: F401  (registers the system check)
            history,
            metrics,
            scrape,
            telemetry,
        )

        history.connect()
        # Every statement of every connection is timed (lp_db_query_duration_seconds).
        connection_created.connect(
            metrics.install_database_timing, dispatch_uid="learning_platform.db_timing"
        )
        scrape.subscribe_readers()
        telemetry.setup()
