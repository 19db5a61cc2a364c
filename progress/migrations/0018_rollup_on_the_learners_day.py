"""The XP-per-day rollup counts each award on the learner's day (`XPAward.day`, the one day
rule), no longer on its UTC day: the leaderboards read it, and their calendar weeks and months
are weeks and months of learners' days (issue 38). A row without a day (a bulk load, a hand
INSERT) counts on its UTC day.

The trigger is replaced and the rollup refilled from the ledger in the migration's
transaction; on PostgreSQL inserts into the ledger wait meanwhile (reads go on), so no award
lands between the delete and the refill."""

from django.db import migrations

# (the day of a ledger row, the day of the trigger's row), by database and rule.
_DAY = {
    ("postgresql", True): ("COALESCE(day, (awarded_at AT TIME ZONE 'UTC')::date)",) * 2,
    ("postgresql", False): ("(awarded_at AT TIME ZONE 'UTC')::date",) * 2,
    ("sqlite", True): (
        "COALESCE(day, date(awarded_at))",
        "COALESCE(NEW.day, date(NEW.awarded_at))",
    ),
    ("sqlite", False): ("date(awarded_at)", "date(NEW.awarded_at)"),
}
_POSTGRES_FUNCTION = """
    CREATE OR REPLACE FUNCTION progress_xpaward_rollup() RETURNS trigger AS $$
    BEGIN
        INSERT INTO progress_learnerdayxp (user_id, day, xp)
        SELECT user_id, {day}, SUM(amount)
        FROM new_awards GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (user_id, day) DO UPDATE SET xp = progress_learnerdayxp.xp + EXCLUDED.xp;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
"""
_SQLITE_TRIGGER = """
    CREATE TRIGGER progress_xpaward_rollup AFTER INSERT ON progress_xpaward BEGIN
        INSERT INTO progress_learnerdayxp (user_id, day, xp)
        VALUES (NEW.user_id, {day}, NEW.amount)
        ON CONFLICT (user_id, day) DO UPDATE SET xp = xp + excluded.xp;
    END
"""


def _install(schema_editor, *, learners_day: bool) -> None:
    vendor = schema_editor.connection.vendor
    row_day, trigger_day = _DAY[(vendor, learners_day)]
    with schema_editor.connection.cursor() as cursor:
        if vendor == "postgresql":
            cursor.execute("LOCK TABLE progress_xpaward IN SHARE MODE")
            cursor.execute(_POSTGRES_FUNCTION.format(day=trigger_day))
        else:
            cursor.execute("DROP TRIGGER IF EXISTS progress_xpaward_rollup")
            cursor.execute(_SQLITE_TRIGGER.format(day=trigger_day))
        cursor.execute("DELETE FROM progress_learnerdayxp")
        refill = (
            "INSERT INTO progress_learnerdayxp (user_id, day, xp) "  # noqa: S608 - constants
            f"SELECT user_id, {row_day}, SUM(amount) FROM progress_xpaward GROUP BY 1, 2"
        )
        cursor.execute(refill)


def on_learners_days(apps, schema_editor):
    _install(schema_editor, learners_day=True)


def on_utc_days(apps, schema_editor):
    _install(schema_editor, learners_day=False)


class Migration(migrations.Migration):
    dependencies = [("progress", "0017_backfill_xpaward_day")]

    operations = [migrations.RunPython(on_learners_days, on_utc_days, elidable=False)]
