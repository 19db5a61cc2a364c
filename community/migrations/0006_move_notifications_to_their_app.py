# Notification and EmailDelivery moved to the notifications app (its 0001 takes them over in
# Django's state); their tables stay as they are, so this removes them from community's state
# only.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('community', '0005_delivery_failed_at'),
        ('notifications', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='Notification'),
                migrations.DeleteModel(name='EmailDelivery'),
            ],
            database_operations=[],
        ),
    ]
