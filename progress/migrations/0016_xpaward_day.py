"""The learner's day each XP award counts on (`XPAward.day`), filled from here on by the ledger's
writer. A nullable column without a default: SQLite adds it in place (no rebuild, so the
rollup's trigger of 0004_learner_day_xp stays), and the release before it keeps inserting
during a deploy. 0017 fills the rows from before."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0015_times_from_the_database_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="xpaward",
            name="day",
            field=models.DateField(blank=True, null=True),
        ),
    ]
