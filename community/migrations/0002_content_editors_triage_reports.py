"""Let the "Content editors" group (lessons 0002) triage issue reports: view and change them.

What a change may touch is the admin's business (status, assignee, internal note); deleting
stays with superusers.
"""

from django.db import migrations

from lessons.editors_group import grant_permissions, revoke_permissions

CODENAMES = ("view_issuereport", "change_issuereport")


def grant(apps, schema_editor):
    grant_permissions(apps, app_label="community", codenames=CODENAMES)


def revoke(apps, schema_editor):
    revoke_permissions(apps, app_label="community", codenames=CODENAMES)


class Migration(migrations.Migration):
    dependencies = [
        ("community", "0001_initial"),
        ("lessons", "0002_content_editors_group"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
