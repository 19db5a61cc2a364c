"""Times stamped by learning_platform.clock (the database's clock): a change of Python-side
defaults only, so the tables are left as they are (on SQLite an AlterField would rebuild them,
and a rebuild drops the XP ledger's rollup trigger)."""

import learning_platform.clock
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("reviews", "0002_card_queue_index"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="reviewcard",
                    name="created_at",
                    field=models.DateTimeField(default=learning_platform.clock.now, editable=False),
                ),
                migrations.AlterField(
                    model_name="reviewlog",
                    name="created_at",
                    field=models.DateTimeField(default=learning_platform.clock.now, editable=False),
                ),
            ],
        ),
    ]
