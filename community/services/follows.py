"""Writes of follows: who follows a lesson's comments, and the unsubscribe links that stop it.

An e-mail's unsubscribe link may be scoped to one lesson; the notifications app asks what such
a link names and how to act on it through its hooks (notifications.events), answered here
(subscribed in CommunityConfig.ready).
"""

from __future__ import annotations

from accounts.models import User
from community.models import LessonSubscription
from learning_platform.errors import NotFound
from lessons.selectors import Lesson, LessonSummary, lesson_summary
from notifications import events as notification_events


class LessonGone(NotFound):
    pass


def set_lesson_subscription(*, user: User, lesson: Lesson, subscribed: bool) -> LessonSubscription:
    """Record the learner's explicit choice to follow (or not) the comments of `lesson`."""
    subscription, _ = LessonSubscription.objects.update_or_create(
        user=user, lesson=lesson, defaults={"subscribed": subscribed}
    )
    return subscription


def describe_followed_lesson(topic: notification_events.FollowedTopic) -> LessonSummary:
    """What a lesson-scoped unsubscribe link names: {"id", "slug", "title"} of the lesson."""
    lesson = lesson_summary(lesson_id=topic.topic_id)
    if lesson is None:
        raise LessonGone("This lesson no longer exists.")
    return lesson


def unfollow_lesson(topic: notification_events.FollowedTopic) -> None:
    """A lesson-scoped unsubscribe link was used: stop following that lesson (idempotent)."""
    LessonSubscription.objects.update_or_create(
        user_id=topic.user_id, lesson_id=topic.topic_id, defaults={"subscribed": False}
    )
