"""XP per learner and calendar week or month (LearnerPeriodXP), kept by the ledger's trigger.

Issue 38: a board's top and a learner's rank in a week or a month read one index instead of
summing the per-day rollup over the period (237 ms and 501 ms at 100,000 learners). The trigger
(0004, 0018) now writes both rollups in the statement that inserts the award; the new table is
filled from the per-day rollup in the migration's transaction, with inserts into the ledger
waiting meanwhile on PostgreSQL (reads go on)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# A day's Monday and first of the month, by database (`progress.periods` in SQL).
_STARTS = {
    "postgresql": {
        "week": "{day} - (EXTRACT(ISODOW FROM {day})::int - 1)",
        "month": "{day} - (EXTRACT(DAY FROM {day})::int - 1)",
    },
    "sqlite": {
        "week": "date({day}, '-6 days', 'weekday 1')",
        "month": "date({day}, 'start of month')",
    },
}
_POSTGRES_DAY_ROLLUP = """
        INSERT INTO progress_learnerdayxp (user_id, day, xp)
        SELECT user_id, COALESCE(day, (awarded_at AT TIME ZONE 'UTC')::date), SUM(amount)
        FROM new_awards GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (user_id, day) DO UPDATE SET xp = progress_learnerdayxp.xp + EXCLUDED.xp;
"""
# Rows are upserted in key order, so two ledger inserts never wait on each other in a circle.
_POSTGRES_FUNCTION = """
    CREATE OR REPLACE FUNCTION progress_xpaward_rollup() RETURNS trigger AS $$
    BEGIN
        {day_rollup}
        {period_rollup}
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
"""
_POSTGRES_PERIOD_ROLLUP = """
        WITH days AS (
            SELECT user_id, COALESCE(day, (awarded_at AT TIME ZONE 'UTC')::date) AS day, amount
            FROM new_awards
        )
        INSERT INTO progress_learnerperiodxp (user_id, period, starts, xp)
        SELECT user_id, period, starts, SUM(amount) FROM (
            SELECT user_id, 'week' AS period, {week} AS starts, amount FROM days
            UNION ALL
            SELECT user_id, 'month', {month}, amount FROM days
        ) AS periods
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (user_id, period, starts)
        DO UPDATE SET xp = progress_learnerperiodxp.xp + EXCLUDED.xp;
"""
_SQLITE_DAY = "COALESCE(NEW.day, date(NEW.awarded_at))"
_SQLITE_TRIGGER = """
    CREATE TRIGGER progress_xpaward_rollup AFTER INSERT ON progress_xpaward BEGIN
        INSERT INTO progress_learnerdayxp (user_id, day, xp)
        VALUES (NEW.user_id, {day}, NEW.amount)
        ON CONFLICT (user_id, day) DO UPDATE SET xp = xp + excluded.xp;
        {period_rollup}
    END
"""
_SQLITE_PERIOD_ROLLUP = """
        INSERT INTO progress_learnerperiodxp (user_id, period, starts, xp)
        VALUES (NEW.user_id, 'week', {week}, NEW.amount), (NEW.user_id, 'month', {month}, NEW.amount)
        ON CONFLICT (user_id, period, starts) DO UPDATE SET xp = xp + excluded.xp;
"""


def _install(schema_editor, *, periods: bool) -> None:
    vendor = schema_editor.connection.vendor
    with schema_editor.connection.cursor() as cursor:
        if vendor == "postgresql":
            starts = {k: v.format(day="day") for k, v in _STARTS[vendor].items()}
            period_rollup = _POSTGRES_PERIOD_ROLLUP.format(**starts) if periods else ""
            cursor.execute("LOCK TABLE progress_xpaward IN SHARE MODE")
            cursor.execute(
                _POSTGRES_FUNCTION.format(
                    day_rollup=_POSTGRES_DAY_ROLLUP, period_rollup=period_rollup
                )
            )
        else:
            starts = {k: v.format(day=_SQLITE_DAY) for k, v in _STARTS[vendor].items()}
            period_rollup = _SQLITE_PERIOD_ROLLUP.format(**starts) if periods else ""
            cursor.execute("DROP TRIGGER IF EXISTS progress_xpaward_rollup")
            cursor.execute(_SQLITE_TRIGGER.format(day=_SQLITE_DAY, period_rollup=period_rollup))
        if not periods:
            return
        # The per-day rollup is whole (0018 refilled it): each period sums its days.
        for period, start in _STARTS[vendor].items():
            cursor.execute(
                "INSERT INTO progress_learnerperiodxp (user_id, period, starts, xp) "  # noqa: S608
                f"SELECT user_id, '{period}', {start.format(day='day')}, SUM(xp) "
                "FROM progress_learnerdayxp GROUP BY 1, 3"
            )


def with_periods(apps, schema_editor):
    _install(schema_editor, periods=True)


def days_only(apps, schema_editor):
    _install(schema_editor, periods=False)


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0018_rollup_on_the_learners_day"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="LearnerPeriodXP",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "period",
                    models.CharField(
                        choices=[("week", "Calendar week"), ("month", "Calendar month")],
                        max_length=5,
                    ),
                ),
                ("starts", models.DateField()),
                ("xp", models.PositiveIntegerField()),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "XP per learner and period",
                "verbose_name_plural": "XP per learner and period",
                "indexes": [
                    models.Index(
                        fields=["period", "starts", "-xp", "user"], name="progress_periodxp_rank"
                    )
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "period", "starts"), name="progress_periodxp_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("period__in", ["week", "month"])),
                        name="progress_periodxp_period_valid",
                    ),
                ],
            },
        ),
        migrations.RunPython(with_periods, days_only, elidable=False),
    ]
