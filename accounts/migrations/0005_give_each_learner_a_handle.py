"""Existing learners each get their own random handle (adding the field gave them all one)."""

import secrets

from django.db import migrations


def give_each_learner_a_handle(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user_id in User.objects.values_list("pk", flat=True).iterator():
        handle = f"Learner {secrets.randbelow(900_000) + 100_000}"
        User.objects.filter(pk=user_id).update(public_handle=handle)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_public_handle")]

    operations = [migrations.RunPython(give_each_learner_a_handle, migrations.RunPython.noop)]
