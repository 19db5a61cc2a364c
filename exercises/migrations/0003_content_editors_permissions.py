"""Let the "Content editors" group (lessons 0002) edit exercises and the reference catalogue."""

from django.db import migrations

GROUP_NAME = "Content editors"
PERMISSIONS = {
    "exercise": ("view", "add", "change", "delete"),
    "exercisecolumn": ("view", "add", "change", "delete"),
    "modelreference": ("view", "add", "change", "delete"),
}


def grant(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations ran; make sure they exist now.
    app_config = apps.get_app_config("exercises")
    app_config.models_module = True  # the migration state's stub has none; create_permissions asks
    create_permissions(app_config, verbosity=0, apps=apps)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP_NAME)
    codenames = [f"{action}_{model}" for model, actions in PERMISSIONS.items() for action in actions]
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="exercises", codename__in=codenames)
    )


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=GROUP_NAME).first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="exercises")
        )


class Migration(migrations.Migration):
    dependencies = [
        ("exercises", "0002_seed_model_references"),
        ("lessons", "0002_content_editors_group"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
