"""Let the "Content editors" group (0002) name, order and delete a quest's units."""

from django.db import migrations

from lessons.editors_group import grant_permissions, revoke_permissions

CODENAMES = ("view_unit", "add_unit", "change_unit", "delete_unit")


def grant(apps, schema_editor):
    grant_permissions(apps, app_label="lessons", codenames=CODENAMES)


def revoke(apps, schema_editor):
    revoke_permissions(apps, app_label="lessons", codenames=CODENAMES)


class Migration(migrations.Migration):
    dependencies = [
        ("lessons", "0018_unit"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
