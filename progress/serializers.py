"""HTTP shapes of the progress API. Output serializers read the dicts selectors and services
answer; input serializers only validate."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from learning_platform.api.fields import StrictCharField, StrictChoiceField
from learning_platform.api.query import QuerySerializer
from progress.models import DAILY_GOALS
from progress.selectors import LEADERBOARD_PERIODS
from progress.sync_events import MAX_SYNC_EVENTS, SyncEventSerializer


class LevelSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    name = serializers.CharField()


class NextLevelSerializer(LevelSerializer):
    xp_required = serializers.IntegerField()


class LevelStepSerializer(NextLevelSerializer):
    xp_required = serializers.IntegerField(help_text="Total XP at which a learner reaches it.")


class LevelCurveSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    results = LevelStepSerializer(
        many=True, help_text="Every level, lowest first; the first needs 0 XP."
    )


class StreakSerializer(serializers.Serializer[Any]):
    current = serializers.IntegerField(
        help_text="Consecutive active days up to today or yesterday, over days forgiven by a "
        "streak freeze or a platform outage."
    )
    best = serializers.IntegerField()
    today = serializers.ChoiceField(
        choices=["done", "to_do", "frozen", "none"],
        help_text="done: active today; to_do: activity today carries the run on; frozen: it "
        "does by using freezes held on the days missed; none: no run stands.",
    )
    freezes = serializers.IntegerField(
        help_text="Streak freezes held: one earned per 7 days of a run, at most 2, used "
        "automatically on missed days."
    )


class DailyGoalSerializer(serializers.Serializer[Any]):
    xp = serializers.IntegerField(
        allow_null=True, help_text="XP a day the learner aims for; null until they choose."
    )
    xp_today = serializers.IntegerField(help_text="XP earned today, in the learner's time zone.")
    met = serializers.BooleanField(help_text="Whether today's XP reached the goal.")
    chosen = serializers.BooleanField(
        help_text="Whether the learner has set a goal or declined one (a PUT of null): the app "
        "asks once, after the first completion."
    )


class DailyGoalInputSerializer(serializers.Serializer[Any]):
    xp = StrictChoiceField(
        choices=DAILY_GOALS,
        allow_null=True,
        help_text="XP a day: " + ", ".join(map(str, DAILY_GOALS)) + "; null clears the goal.",
        error_messages={
            "invalid_choice": "Choose a daily goal of "
            + ", ".join(map(str, DAILY_GOALS[:-1]))
            + f" or {DAILY_GOALS[-1]} XP."
        },
    )


class CalendarDaySerializer(serializers.Serializer[Any]):
    day = serializers.DateField()
    xp = serializers.IntegerField(help_text="XP earned that day, in the learner's time zone.")
    goal_met = serializers.BooleanField(help_text="Whether the day's XP reached the goal.")
    frozen = serializers.BooleanField(help_text="Whether a streak freeze forgave the day.")


class CalendarSerializer(serializers.Serializer[Any]):
    first_day = serializers.DateField(help_text="The calendar's first day (a 12-week window).")
    last_day = serializers.DateField(help_text="Today, in the learner's time zone.")
    days = CalendarDaySerializer(
        many=True,
        help_text="Days with XP, a goal met or a freeze used, oldest first; the others had none.",
    )


class ProgressSummarySerializer(serializers.Serializer[Any]):
    quest = serializers.CharField(help_text="Slug of the quest the lesson counts are about.")
    level = LevelSerializer()
    xp = serializers.IntegerField()
    xp_into_level = serializers.IntegerField(help_text="XP earned since reaching this level.")
    xp_for_level = serializers.IntegerField(
        help_text="XP between this level and the next (0 at the top)."
    )
    xp_to_go = serializers.IntegerField(help_text="XP still needed for the next level.")
    next_level = NextLevelSerializer(allow_null=True, help_text="Null at the top level.")
    lessons_completed = serializers.IntegerField()
    lessons_total = serializers.IntegerField(help_text="Published lessons of the quest.")
    percent_complete = serializers.IntegerField(help_text="0-100, rounded down.")
    achievements_unlocked = serializers.IntegerField()
    achievements_total = serializers.IntegerField()
    streak = StreakSerializer()
    daily_goal = DailyGoalSerializer()
    completed_lessons = serializers.ListField(
        child=serializers.CharField(), help_text="Slugs of the completed lessons, in quest order."
    )


class ProgressQuerySerializer(QuerySerializer):
    quest = serializers.SlugField(required=False, help_text="Quest slug; default: the demo quest.")


class NewAchievementSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    title = serializers.CharField()
    xp_bonus = serializers.IntegerField()


class CompletionOutputSerializer(serializers.Serializer[Any]):
    lesson = serializers.CharField(source="lesson_slug")
    completed_at = serializers.DateTimeField(help_text="When the lesson was first completed.")
    xp_awarded = serializers.IntegerField(
        help_text="XP the lesson paid by this call; 0 when it was already completed."
    )
    xp = serializers.IntegerField(
        source="xp_total", help_text="The learner's XP now, achievement bonuses included."
    )
    level_before = LevelSerializer()
    level_after = LevelSerializer()
    level_up = serializers.BooleanField()
    new_achievements = NewAchievementSerializer(
        many=True, help_text="Achievements this call unlocked (their bonus is in `xp`)."
    )


@extend_schema_field(SyncEventSerializer)
class SyncEventField(serializers.JSONField):
    """Any JSON value: each event is checked by the sync service with SyncEventSerializer,
    which rejects a bad one (with its reason) and applies the rest of the batch."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)


class SyncInputSerializer(serializers.Serializer[Any]):
    device_id = StrictCharField(
        max_length=100, help_text="Stable id of the device (chosen by the device)."
    )
    events = serializers.ListField(
        child=SyncEventField(),
        allow_empty=True,
        help_text=f"At most {MAX_SYNC_EVENTS} events (413 beyond).",
    )
    cursor = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="The `cursor` of this device's previous sync: then `changes` lists what other "
        "devices added since.",
    )


class RejectedEventSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(allow_null=True, help_text="The event's id, null if unreadable.")
    reason = serializers.ChoiceField(
        choices=[
            "malformed",
            "future_time",
            "too_old",
            "unknown_lesson",
            "checks_required",
        ]
    )
    detail = serializers.CharField()


class SyncChangeSerializer(serializers.Serializer[Any]):
    lesson = serializers.CharField(source="lesson_slug")
    completed_at = serializers.DateTimeField()
    device_id = serializers.CharField(help_text="The device that made the change; empty: the web.")


class SyncResultSerializer(ProgressSummarySerializer):
    rejected = RejectedEventSerializer(many=True)
    cursor = serializers.CharField(help_text="Send it with this device's next sync.")
    changes = SyncChangeSerializer(
        many=True,
        help_text="With a cursor: completions other devices added or moved earlier since it.",
    )
    new_achievements = NewAchievementSerializer(many=True)


class LeaderboardQuerySerializer(QuerySerializer):
    period = serializers.ChoiceField(
        choices=list(LEADERBOARD_PERIODS),
        default="week",
        help_text="week: this calendar week (Monday to Sunday); month: this calendar month, "
        "of learners' days, on your clock; all: all time.",
    )


class LeaderboardEntrySerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Equal XP, equal rank.")
    user_id = serializers.IntegerField()
    display_name = serializers.CharField()
    xp = serializers.IntegerField(help_text="XP earned in the period.")
    is_me = serializers.BooleanField()


class LeaderboardMeSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    xp = serializers.IntegerField()
    on_leaderboard = serializers.BooleanField(
        help_text="False when the learner opted out: others do not see them."
    )


class LeaderboardBoundsSerializer(serializers.Serializer[Any]):
    since = serializers.DateTimeField(
        allow_null=True, help_text="When the period began on your clock (null: all time)."
    )
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="When it ends on your clock: the time left (null: all time)."
    )
    first_day = serializers.DateField(allow_null=True, help_text="The period's first day.")
    last_day = serializers.DateField(allow_null=True, help_text="The period's last day.")


class LeaderboardOutputSerializer(LeaderboardBoundsSerializer):
    period = serializers.CharField()
    entries = LeaderboardEntrySerializer(many=True)
    me = LeaderboardMeSerializer(allow_null=True, help_text="Null when signed out.")
