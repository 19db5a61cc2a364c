"""Let the "Content editors" group (lessons 0002) edit exercises and the reference catalogue."""

from django.db import migrations

from lessons.editors_group import grant_permissions, revoke_permissions

PERMISSIONS = {
    "exercise": ("view", "add", "change", "delete"),
    "exercisecolumn": ("view", "add", "change", "delete"),
    "modelreference": ("view", "add", "change", "delete"),
}


CODENAMES = tuple(f"{action}_{model}" for model, actions in PERMISSIONS.items() for action in actions)


def grant(apps, schema_editor):
    grant_permissions(apps, app_label="exercises", codenames=CODENAMES)


def revoke(apps, schema_editor):
    revoke_permissions(apps, app_label="exercises", codenames=CODENAMES)


class Migration(migrations.Migration):
    dependencies = [
        ("exercises", "0002_seed_model_references"),
        ("lessons", "0002_content_editors_group"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
