"""Let the "Content editors" group (lessons 0002) triage issue reports: view and change them.

What a change may touch is the admin's business (status, assignee, internal note); deleting
stays with superusers.
"""

from django.db import migrations

GROUP_NAME = "Content editors"
CODENAMES = ("view_issuereport", "change_issuereport")


def grant(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations ran; make sure they exist now.
    app_config = apps.get_app_config("community")
    app_config.models_module = True  # the migration state's stub has none; create_permissions asks
    create_permissions(app_config, verbosity=0, apps=apps)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP_NAME)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="community", codename__in=CODENAMES)
    )


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=GROUP_NAME).first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="community", codename__in=CODENAMES)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("community", "0001_initial"),
        ("lessons", "0002_content_editors_group"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
