from django.apps import AppConfig


class CurriculumConfig(AppConfig):
    """The curriculum as files (content/): loaded into lessons and exercises, exported back."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "curriculum"
