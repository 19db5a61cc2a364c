"""What notifications asks of the apps above it (learning_platform/hooks.py).

An unsubscribe link may be scoped to one followed topic (a lesson whose comments the learner
follows): the link carries the topic's id, and the app that owns following subscribes to these
hooks in its `AppConfig.ready()` to say what the id names and to stop the following.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from learning_platform.hooks import Hook


@dataclass(frozen=True)
class FollowedTopic:
    user_id: int
    topic_id: int


# Asked what a scoped link names. The owner answers {"id", "slug", "title"} (or raises its own
# NotFound when the topic is gone); a subscriber that does not own it answers None.
describe_followed_topic: Hook[FollowedTopic, Mapping[str, Any] | None] = Hook(
    "notifications.describe_followed_topic"
)
# A scoped link was used: the owner records that the user no longer follows the topic.
unfollow_topic: Hook[FollowedTopic, object] = Hook("notifications.unfollow_topic")
