import importlib

import pytest
from django.apps import apps
from django.db import connection

from progress.models import LearnerDayXP, LearnerPeriodXP, LearnerStats, Level, XPAward

seed_migration = importlib.import_module("progress.migrations.0002_seed_levels")

pytestmark = pytest.mark.django_db


def test_the_seeded_curve_has_increasing_xp_and_consecutive_numbers():
    levels = list(Level.objects.order_by("number").values_list("number", "xp_required"))

    assert [number for number, _ in levels] == list(range(len(levels)))
    assert [xp for _, xp in levels] == sorted({xp for _, xp in levels})


def test_the_seed_reverses_and_reapplies_without_touching_editor_levels():
    Level.objects.create(number=99, name="Editor made", xp_required=99_999)

    seed_migration.unseed(apps, None)
    assert list(Level.objects.values_list("number", flat=True)) == [99]

    seed_migration.seed(apps, None)
    seed_migration.seed(apps, None)
    assert Level.objects.count() == len(seed_migration.LEVELS) + 1


def test_the_backfill_counts_each_learners_paid_exercises(user):
    from progress import services
    from progress.models import LearnerStats

    backfill = importlib.import_module("progress.migrations.0006_backfill_exercises_passed")
    services.award_xp(
        awards=[
            services.Award(user.id, "exercise", 1, 5),
            services.Award(user.id, "exercise", 2, 5),
            services.Award(user.id, "lesson", 1, 5),
        ]
    )
    LearnerStats.objects.update(exercises_passed=0)  # as before the column existed

    backfill.backfill(apps, None)

    assert LearnerStats.objects.get(pk=user.pk).exercises_passed == 2


def test_a_stats_row_inserted_without_the_exercises_passed_column_counts_zero(user):
    # As the release before the column inserts it, during a deploy.
    table = connection.ops.quote_name(LearnerStats._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (user_id, xp_total, streak_current, streak_best, sync_seq, "  # noqa: S608
            "updated_at) VALUES (%s, 0, 0, 0, 0, %s)",
            [user.pk, "2026-11-30 12:00:00+00:00"],
        )

    assert LearnerStats.objects.get(pk=user.pk).exercises_passed == 0


def test_the_rollup_trigger_is_on_the_ledger_after_every_migration(user):
    # SQLite drops a table's triggers when a migration rebuilds it (0012, 0014 put it back).
    XPAward.objects.create(user=user, source_type="exercise", source_id=1, amount=7)

    assert list(LearnerDayXP.objects.filter(user=user).values_list("xp", flat=True)) == [7]
    assert sorted(LearnerPeriodXP.objects.filter(user=user).values_list("period", "xp")) == [
        ("month", 7),
        ("week", 7),
    ]
