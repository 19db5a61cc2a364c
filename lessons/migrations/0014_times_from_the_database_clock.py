"""Times stamped by learning_platform.clock (the database's clock): a change of Python-side
defaults only, so the tables are left as they are (on SQLite an AlterField would rebuild them,
and a rebuild drops the XP ledger's rollup trigger)."""

import learning_platform.clock
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("lessons", "0013_lesson_old_slug"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="lesson",
                    name="created_at",
                    field=models.DateTimeField(default=learning_platform.clock.now, editable=False),
                ),
            ],
        ),
    ]
