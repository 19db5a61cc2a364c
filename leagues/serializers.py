from typing import Any

from rest_framework import serializers

from leagues.results import MOVES
from leagues.rules import TIERS
from learning_platform.api.fields import StrictBooleanField


class TierSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text=f"1 (lowest) to {len(TIERS)} (highest).")
    name = serializers.ChoiceField(choices=TIERS)


class LeagueMemberSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="1 is first; equal XP: who reached it first.")
    display_name = serializers.CharField(help_text="The learner's public name.")
    xp = serializers.IntegerField(help_text="League XP this week.")
    you = serializers.BooleanField()


class LeagueResultSerializer(serializers.Serializer[Any]):
    week = serializers.DateField(help_text="The closed week's Monday (what `result/seen` takes).")
    week_last_day = serializers.DateField(help_text="The closed week's Sunday.")
    tier_before = TierSerializer(help_text="The tier the learner played the week in.")
    tier_after = TierSerializer(help_text="The tier the week's close moved them to.")
    rank = serializers.IntegerField(help_text="Their final position in the cohort, 1 is first.")
    members = serializers.IntegerField(help_text="How many learners the cohort ranked.")
    move = serializers.ChoiceField(choices=MOVES)


class MyLeagueSerializer(serializers.Serializer[Any]):
    participating = serializers.BooleanField(help_text="False: the learner left the leagues.")
    placed = serializers.BooleanField(
        help_text="Whether the learner is in a cohort this week (their first XP of the week "
        "places them)."
    )
    waiting = serializers.BooleanField(
        help_text="Earned XP this week but waits for last week's close to be placed."
    )
    tier = TierSerializer(help_text="This week's tier (when not placed: the tier they would join).")
    cohort_size = serializers.IntegerField(help_text="The most learners one cohort holds.")
    week_first_day = serializers.DateField(help_text="The week's Monday.")
    week_last_day = serializers.DateField(help_text="The week's Sunday.")
    ends_at = serializers.DateTimeField(help_text="When the week ends in the learner's zone.")
    members = LeagueMemberSerializer(
        many=True, help_text="The cohort, best first; empty if not placed."
    )
    promotion_line = serializers.IntegerField(
        allow_null=True, help_text="Members ranked up to this move up a tier; null: nobody."
    )
    demotion_line = serializers.IntegerField(
        allow_null=True, help_text="Members ranked from this on move down a tier; null: nobody."
    )
    result = LeagueResultSerializer(
        allow_null=True,
        help_text="The learner's last closed week, until they saw it (`POST "
        "/me/league/result/seen`); null: none, or seen.",
    )


class ParticipationSerializer(serializers.Serializer[Any]):
    participating = StrictBooleanField(
        help_text="False leaves the leagues (no placement; off this week's list); true joins again."
    )


class ResultSeenSerializer(serializers.Serializer[Any]):
    # Another day than a Monday names no week: not found, like a week with no result (a 400
    # for a valid date is an answer the schema cannot promise).
    week = serializers.DateField(help_text="The Monday of the week whose result was seen.")
