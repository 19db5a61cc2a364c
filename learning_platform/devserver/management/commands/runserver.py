from typing import Any

from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserver

from learning_platform.scheduler import start_embedded_scheduler


class Command(StaticRunserver):
    help = (
        f"{StaticRunserver.help} Without a broker it also runs the periodic jobs of "
        "CELERY_BEAT_SCHEDULE in-process (EMBEDDED_SCHEDULER)."
    )

    def inner_run(self, *args: Any, **options: Any) -> None:
        # inner_run runs in the process that serves (under the autoreloader its child, a new
        # process after each reload), so there is one scheduler per serving process.
        start_embedded_scheduler()
        super().inner_run(*args, **options)
