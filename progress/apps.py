from django.apps import AppConfig


class ProgressConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "progress"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from progress import summary_cache

        def content_changed(**kwargs) -> None:
            summary_cache.note_content_changed()

        # What every learner's progress header counts: invalidate the cached headers.
        for model in (
            "progress.Level",
            "lessons.Lesson",
            "lessons.Quest",
            "achievements.Achievement",
        ):
            for signal in (post_save, post_delete):
                signal.connect(content_changed, sender=model, weak=False)
