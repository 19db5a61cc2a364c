from typing import Any

from django.conf import settings
from rest_framework import serializers

from achievements.models import Achievement, RuleKind


class RuleOutputSerializer(serializers.Serializer[Achievement]):
    kind = serializers.ChoiceField(choices=RuleKind.choices, source="rule_kind")
    summary = serializers.CharField(source="rule_summary")
    threshold = serializers.IntegerField(allow_null=True, help_text="N, or P for quest percent.")
    tag = serializers.CharField(
        source="tag_slug", allow_null=True, help_text="Tag rule only: the tag's slug."
    )
    quest = serializers.SerializerMethodField(
        help_text="Quest-percent rule only: the quest's slug."
    )

    def get_quest(self, achievement: Achievement) -> str | None:
        if achievement.rule_kind != RuleKind.QUEST_PERCENT:
            return None
        quest = achievement.quest
        return quest.slug if quest is not None else settings.DEMO_QUEST_SLUG

    def to_representation(self, instance: Achievement) -> dict[str, Any]:
        data = super().to_representation(instance)
        data["tag"] = data["tag"] or None
        return data


class ProgressOutputSerializer(serializers.Serializer[Any]):
    current = serializers.IntegerField(help_text="Where the learner stands, capped at target.")
    target = serializers.IntegerField(
        help_text="What unlocks it (for the tag rule: the number of lessons with the tag)."
    )


class AchievementOutputSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField(source="achievement.slug")
    title = serializers.CharField(source="achievement.title")
    description = serializers.CharField(source="achievement.description")
    icon = serializers.CharField(source="achievement.icon", help_text="An icon name.")
    xp_bonus = serializers.IntegerField(source="achievement.xp_bonus")
    rule = RuleOutputSerializer(source="achievement")
    unlocked = serializers.BooleanField(help_text="Always false for anonymous callers.")
    unlocked_at = serializers.DateTimeField(allow_null=True)
    progress = ProgressOutputSerializer(
        allow_null=True, help_text="Progress toward it; null for anonymous callers."
    )


class AchievementListOutputSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField(help_text="How many achievements there are.")
    unlocked_count = serializers.IntegerField(help_text="How many the caller has unlocked.")
    results = AchievementOutputSerializer(many=True)
