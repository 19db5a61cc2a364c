"""Seed the level curve, themed on the path of a token through a transformer.

XP required grows by 40 more per level (20·n² + 100·n): level 1 at 120 XP, the top (13) at
4,680. The demo quest's 94 lessons pay 3,170 XP, its achievements 375 more and its exercises
the rest, so a learner who finishes everything stands at level 12, one below the top.
Editors change the curve in the admin afterwards; reversing deletes only these rows.
"""

from django.db import migrations

LEVELS = [
    "Token",
    "Embedding",
    "Positional Encoding",
    "Query",
    "Key",
    "Value",
    "Attention Head",
    "Multi-Head Attention",
    "Residual Stream",
    "Feed-Forward Network",
    "Layer Norm",
    "Transformer Block",
    "Decoder Stack",
    "Language Model",
]


def xp_required(number: int) -> int:
    return 20 * number * number + 100 * number


def seed(apps, schema_editor):
    Level = apps.get_model("progress", "Level")
    for number, name in enumerate(LEVELS):
        Level.objects.get_or_create(
            number=number, defaults={"name": name, "xp_required": xp_required(number)}
        )


def unseed(apps, schema_editor):
    Level = apps.get_model("progress", "Level")
    Level.objects.filter(
        number__in=range(len(LEVELS)), name__in=LEVELS
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("progress", "0001_initial")]

    operations = [migrations.RunPython(seed, unseed)]
