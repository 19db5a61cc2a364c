"""Seed the ten achievements of the demo quest, "How transformer language models work".

Quest-percent rules leave `quest` blank, which means the demo quest (settings.DEMO_QUEST_SLUG):
the curriculum is loaded after migrations, so there is no quest row to point at yet.
Reversing deletes these ten (by slug) and nothing an editor added.
"""

from django.db import migrations

ACHIEVEMENTS = [
    {
        "slug": "first-token",
        "title": "First token",
        "description": "Complete your first lesson.",
        "icon": "sparkles",
        "xp_bonus": 10,
        "rule_kind": "lessons_completed",
        "threshold": 1,
    },
    {
        "slug": "growing-context",
        "title": "Growing context window",
        "description": "Complete 10 lessons.",
        "icon": "book-open",
        "xp_bonus": 25,
        "rule_kind": "lessons_completed",
        "threshold": 10,
    },
    {
        "slug": "tokenizer-whisperer",
        "title": "Tokenizer whisperer",
        "description": "Complete every lesson tagged tokenization.",
        "icon": "puzzle",
        "xp_bonus": 40,
        "rule_kind": "tag_completed",
        "tag_slug": "tokenization",
    },
    {
        "slug": "halfway-through-the-stack",
        "title": "Halfway through the stack",
        "description": "Complete half of the transformers quest.",
        "icon": "layers",
        "xp_bonus": 50,
        "rule_kind": "quest_percent",
        "threshold": 50,
    },
    {
        "slug": "full-forward-pass",
        "title": "Full forward pass",
        "description": "Complete the whole transformers quest.",
        "icon": "trophy",
        "xp_bonus": 150,
        "rule_kind": "quest_percent",
        "threshold": 100,
    },
    {
        "slug": "warmed-up-weights",
        "title": "Warmed-up weights",
        "description": "Earn 500 XP.",
        "icon": "zap",
        "xp_bonus": 0,
        "rule_kind": "xp_total",
        "threshold": 500,
    },
    {
        "slug": "residual-stream",
        "title": "Residual stream",
        "description": "Learn seven days in a row.",
        "icon": "flame",
        "xp_bonus": 30,
        "rule_kind": "streak_days",
        "threshold": 7,
    },
    {
        "slug": "loss-goes-down",
        "title": "Loss goes down",
        "description": "Pass 5 exercises.",
        "icon": "check-circle",
        "xp_bonus": 30,
        "rule_kind": "exercises_passed",
        "threshold": 5,
    },
    {
        "slug": "multi-head-discussion",
        "title": "Multi-head discussion",
        "description": "Post 3 comments.",
        "icon": "message-circle",
        "xp_bonus": 15,
        "rule_kind": "comments_posted",
        "threshold": 3,
    },
    {
        "slug": "error-correction",
        "title": "Error correction",
        "description": "Have an issue report accepted by the editors.",
        "icon": "flag",
        "xp_bonus": 25,
        "rule_kind": "reports_accepted",
        "threshold": 1,
    },
]


def seed(apps, schema_editor):
    Achievement = apps.get_model("achievements", "Achievement")
    for position, fields in enumerate(ACHIEVEMENTS, start=1):
        defaults = {**fields, "position": position * 10}
        slug = defaults.pop("slug")
        Achievement.objects.get_or_create(slug=slug, defaults=defaults)


def unseed(apps, schema_editor):
    Achievement = apps.get_model("achievements", "Achievement")
    Achievement.objects.filter(slug__in=[a["slug"] for a in ACHIEVEMENTS]).delete()


class Migration(migrations.Migration):
    dependencies = [("achievements", "0001_initial")]

    operations = [migrations.RunPython(seed, unseed)]
