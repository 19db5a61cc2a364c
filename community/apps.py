from django.apps import AppConfig

from learning_platform.db import grows_with_learners


class CommunityConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "community"

    def ready(self) -> None:
        # Imported here, not at the top: models and the modules importing them need Django's
        # app registry, which is ready only now.
        from django.db.models.signals import post_delete, post_save

        from community.models import Comment, IssueReport
        from community.selectors import discussion_version_key
        from community.services import follows
        from learning_platform import versioned
        from lessons.selectors import lesson_slug
        from notifications import events as notification_events
        from progress.summary_cache import learner_version_key

        grows_with_learners(Comment)

        # A lesson-scoped unsubscribe link (in a digest e-mail) stops following that lesson.
        notification_events.describe_followed_topic.subscribe(follows.describe_followed_lesson)
        notification_events.unfollow_topic.subscribe(follows.unfollow_lesson)

        # Every write to a comment (posted, edited, deleted, hidden or shown, by a service or
        # in the admin) changes its lesson's comment page and count, and what its author's
        # achievements count.
        def comment_changed(instance: Comment, **kwargs: object) -> None:
            slug: str | None = (
                instance.lesson.slug
                if Comment.lesson.is_cached(instance)
                else lesson_slug(lesson_id=instance.lesson_id)
            )
            lesson = [discussion_version_key(slug)] if slug is not None else []
            versioned.bump(*lesson, learner_version_key(instance.author_id))

        def report_changed(instance: IssueReport, **kwargs: object) -> None:
            if instance.reporter_id is not None:
                versioned.bump(learner_version_key(instance.reporter_id))

        for signal in (post_save, post_delete):
            signal.connect(comment_changed, sender=Comment, weak=False)
            signal.connect(report_changed, sender=IssueReport, weak=False)

        from community import subscribers  # imports services, hence models: after setup

        subscribers.subscribe()

        # Imports models: after setup, like the subscribers above.
        from accounts import events as account_events
        from community import personal_data

        account_events.account_data_asked.subscribe(personal_data.export)
        account_events.account_purged.subscribe(personal_data.purge)
