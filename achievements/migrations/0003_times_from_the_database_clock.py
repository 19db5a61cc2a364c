"""Times stamped by learning_platform.clock (the database's clock): a change of Python-side
defaults only, so the tables are left as they are (on SQLite an AlterField would rebuild them,
and a rebuild drops the XP ledger's rollup trigger)."""

import learning_platform.clock
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("achievements", "0002_seed_achievements"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="achievement",
                    name="created_at",
                    field=models.DateTimeField(default=learning_platform.clock.now, editable=False),
                ),
                migrations.AlterField(
                    model_name="achievementunlock",
                    name="unlocked_at",
                    field=models.DateTimeField(default=learning_platform.clock.now, editable=False),
                ),
            ],
        ),
    ]
