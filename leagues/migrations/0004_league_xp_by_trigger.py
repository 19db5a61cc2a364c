"""League XP written by a trigger on the XP ledger, in the statement that inserts the award.

Issue 38: an award must cost within 10 % of what it cost before the leagues. Adding the award to
the member's open week from Python cost a statement of its own (a round trip: 0.44 ms of a
2.89 ms award at 100,000 learners, x1.15); in the ledger's own statement it costs no round
trip. Placement (a learner's first XP of a week) stays in Python (`leagues.services`), which
knows it without a query from `XpPaid.latest_week_with_xp`.

The trigger adds each inserted award's amount (above 0) to its learner's membership of the
week of the award's stored day (`progress.periods.week_of`, restated in SQL below and pinned by
leagues/tests/test_league_xp.py) while that week is open (`tier_after` null), and moves
`reached_at` to the award's time if later. On PostgreSQL one statement-level trigger locks the
memberships in id order first, the order every writer of them agrees on.

On SQLite, a migration that rebuilds `progress_xpaward` drops the table's triggers: such a
migration must create this one again (the league XP tests fail without it).

Deploy: the previous release adds league XP in Python. An award it pays after this migration
ran counts twice in league XP, so this migration runs with the previous release's web and
workers stopped (docs/release-notes.md), an exception to the rolling update."""

from django.db import migrations

_POSTGRES_FUNCTION = """
    CREATE OR REPLACE FUNCTION leagues_xpaward_league_xp() RETURNS trigger AS $$
    BEGIN
        WITH earned AS (
            SELECT user_id, day - (EXTRACT(ISODOW FROM day)::int - 1) AS week,
                   SUM(amount) AS xp, MAX(awarded_at) AS reached_at
            FROM (
                SELECT user_id, COALESCE(day, (awarded_at AT TIME ZONE 'UTC')::date) AS day,
                       amount, awarded_at
                FROM new_awards WHERE amount > 0
            ) AS awards
            GROUP BY 1, 2
        ), locked AS (
            SELECT m.id, e.xp, e.reached_at
            FROM leagues_membership AS m
            JOIN earned AS e ON e.user_id = m.user_id AND e.week = m.week
            WHERE m.tier_after IS NULL
            ORDER BY m.id
            FOR UPDATE OF m
        )
        UPDATE leagues_membership AS m
        SET xp = m.xp + locked.xp, reached_at = GREATEST(m.reached_at, locked.reached_at)
        FROM locked
        WHERE m.id = locked.id AND m.tier_after IS NULL;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
"""
_POSTGRES_TRIGGER = """
    CREATE TRIGGER leagues_xpaward_league_xp AFTER INSERT ON progress_xpaward
    REFERENCING NEW TABLE AS new_awards
    FOR EACH STATEMENT EXECUTE FUNCTION leagues_xpaward_league_xp()
"""
_POSTGRES_REVERSE = (
    "DROP TRIGGER IF EXISTS leagues_xpaward_league_xp ON progress_xpaward",
    "DROP FUNCTION IF EXISTS leagues_xpaward_league_xp()",
)
_SQLITE_DAY = "COALESCE(NEW.day, date(NEW.awarded_at))"
_SQLITE = f"""
    CREATE TRIGGER leagues_xpaward_league_xp AFTER INSERT ON progress_xpaward
    WHEN NEW.amount > 0
    BEGIN
        UPDATE leagues_membership
        SET xp = xp + NEW.amount, reached_at = MAX(reached_at, NEW.awarded_at)
        WHERE user_id = NEW.user_id
          AND week = date({_SQLITE_DAY}, '-6 days', 'weekday 1')
          AND tier_after IS NULL;
    END
"""
_SQLITE_REVERSE = "DROP TRIGGER IF EXISTS leagues_xpaward_league_xp"


def install(apps, schema_editor):
    postgres = schema_editor.connection.vendor == "postgresql"
    for statement in (_POSTGRES_FUNCTION, _POSTGRES_TRIGGER) if postgres else (_SQLITE,):
        schema_editor.execute(statement)


def remove(apps, schema_editor):
    postgres = schema_editor.connection.vendor == "postgresql"
    for statement in _POSTGRES_REVERSE if postgres else (_SQLITE_REVERSE,):
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_backfill_membership_rank"),
        ("progress", "0019_learner_period_xp"),
    ]

    operations = [migrations.RunPython(install, remove, elidable=False)]
