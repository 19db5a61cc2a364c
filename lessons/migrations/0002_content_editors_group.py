"""Create the "Content editors" group with exactly the permissions lesson editing needs."""

from django.db import migrations

GROUP_NAME = "Content editors"
PERMISSIONS = {
    "quest": ("view", "change"),
    "lesson": ("view", "add", "change", "delete"),
    "block": ("view", "add", "change", "delete"),
    "link": ("view", "add", "change", "delete"),
    "tag": ("view", "add", "change"),
}


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations ran; make sure they exist now.
    app_config = apps.get_app_config("lessons")
    app_config.models_module = True  # the migration state's stub has none; create_permissions asks
    create_permissions(app_config, verbosity=0, apps=apps)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP_NAME)
    codenames = [f"{action}_{model}" for model, actions in PERMISSIONS.items() for action in actions]
    permissions = Permission.objects.filter(
        content_type__app_label="lessons", codename__in=codenames
    )
    group.permissions.add(*permissions)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("lessons", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
