"""No two learners with names a reader cannot tell apart, guarded by the database."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0007_disambiguate_display_names")]

    operations = [
        migrations.AddConstraint(
            model_name='user',
            constraint=models.UniqueConstraint(condition=models.Q(('display_name_key', ''), _negated=True), fields=('display_name_key',), name='accounts_user_display_name_key_unique', violation_error_message="This name is taken, or looks too much like another learner's name. Please pick another."),
        ),
    ]
