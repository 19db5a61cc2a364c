from django.apps import AppConfig


class DevServerConfig(AppConfig):
    """Only a `runserver` command: Django's (with staticfiles') plus the embedded default's
    periodic jobs (learning_platform/scheduler.py). Listed before django.contrib.staticfiles,
    since the first app that has a command wins."""

    name = "learning_platform.devserver"
    label = "devserver"
    verbose_name = "Development server"
