"""Fill `XPAward.day` on the rows from before the column, by the rule the writer uses
(`progress.streaks.day_of_activity`), then index it for the calendar.

What is known of an old award is its time and its learner's zone now, not the zone they were
in then: each row counts on the date of its time in the learner's present zone, which is what
the day rule gives any learner who kept their zone (a walk over their awards in time order in
one zone lands every award on its local date). A learner who changed zone may see an old
award on a neighbouring date in the calendar; their streak is unchanged (its days are
`ActivityDay` rows, stored when they were made).

In batches of rows by id, each batch its own transaction (the migration is not atomic), and
only rows still without a day: an interrupted run resumes where it stopped, and running it
again after a deploy fills the rows the release before wrote meanwhile."""

import zoneinfo

from django.db import migrations, models, transaction

from progress.streaks import day_of_activity

BATCH = 2000


def backfill(apps, schema_editor):
    XPAward = apps.get_model("progress", "XPAward")
    alias = schema_editor.connection.alias
    zones: dict[str, zoneinfo.ZoneInfo] = {}
    after = 0
    while True:
        with transaction.atomic(using=alias):
            rows = list(
                XPAward.objects.using(alias)
                .filter(id__gt=after, day__isnull=True)
                .order_by("id")
                .values_list("id", "awarded_at", "user__time_zone")[:BATCH]
            )
            if not rows:
                return
            awards = []
            for pk, awarded_at, name in rows:
                if name not in zones:
                    try:
                        zones[name] = zoneinfo.ZoneInfo(name)
                    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                        zones[name] = zoneinfo.ZoneInfo("UTC")
                day, _ = day_of_activity(awarded_at, zone=zones[name], last=None, last_start=None)
                awards.append(XPAward(id=pk, day=day))
            XPAward.objects.using(alias).bulk_update(awards, ["day"])
        after = rows[-1][0]


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("progress", "0016_xpaward_day"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=False),
        # After the backfill: the rows are written once, not the index too.
        migrations.AddIndex(
            model_name="xpaward",
            index=models.Index(fields=["user", "day", "amount"], name="progress_xp_user_day"),
        ),
    ]
