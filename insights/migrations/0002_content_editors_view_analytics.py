"""Let the "Content editors" group (lessons 0002) read the analytics pages."""

from django.db import migrations

from lessons.editors_group import grant_permissions, revoke_permissions

CODENAMES = ("view_questanalytics",)


def grant(apps, schema_editor):
    grant_permissions(apps, app_label="insights", codenames=CODENAMES)


def revoke(apps, schema_editor):
    revoke_permissions(apps, app_label="insights", codenames=CODENAMES)


class Migration(migrations.Migration):
    dependencies = [
        ("insights", "0001_initial"),
        ("lessons", "0002_content_editors_group"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
