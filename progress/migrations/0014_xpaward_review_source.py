"""The XP ledger's "review" source: a due review card answered pays a little XP."""

from django.conf import settings
from django.db import migrations, models

# SQLite cannot change a table's constraints in place: Django rebuilds the table, and the
# rebuild drops its triggers. The rollup's trigger (0004_learner_day_xp) goes back on it, as
# in 0012_xpaward_check_source.
_SQLITE_TRIGGER = """
    CREATE TRIGGER progress_xpaward_rollup AFTER INSERT ON progress_xpaward BEGIN
        INSERT INTO progress_learnerdayxp (user_id, day, xp)
        VALUES (NEW.user_id, date(NEW.awarded_at), NEW.amount)
        ON CONFLICT (user_id, day) DO UPDATE SET xp = xp + excluded.xp;
    END
"""


def restore_sqlite_trigger(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return  # PostgreSQL alters the constraint in place: its trigger stays.
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER IF EXISTS progress_xpaward_rollup")
        cursor.execute(_SQLITE_TRIGGER)


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0013_missed_board_update"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Undone last when the migration is reversed: the trigger back after that rebuild too.
        migrations.RunPython(migrations.RunPython.noop, restore_sqlite_trigger, elidable=False),
        migrations.RemoveConstraint(
            model_name="xpaward",
            name="progress_xpaward_source_type_valid",
        ),
        migrations.AlterField(
            model_name="xpaward",
            name="source_type",
            field=models.CharField(
                choices=[
                    ("lesson", "Lesson completed"),
                    ("exercise", "Exercise passed"),
                    ("achievement", "Achievement unlocked"),
                    ("check", "Check answered"),
                    ("review", "Review answered"),
                ],
                max_length=20,
            ),
        ),
        migrations.AddConstraint(
            model_name="xpaward",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("source_type__in", ["lesson", "exercise", "achievement", "check", "review"])
                ),
                name="progress_xpaward_source_type_valid",
            ),
        ),
        migrations.RunPython(restore_sqlite_trigger, migrations.RunPython.noop, elidable=False),
    ]
