"""The "Content editors" group's permissions, granted by data migrations of several apps.

Functions of the historical `apps` registry only (no model imports), so migrations can keep
calling them as the models change.
"""

from __future__ import annotations

from django.apps.registry import Apps

GROUP_NAME = "Content editors"


def grant_permissions(apps: Apps, *, app_label: str, codenames: tuple[str, ...]) -> None:
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations ran; make sure they exist now.
    app_config = apps.get_app_config(app_label)
    # The migration state's stub has no module; create_permissions asks for a truthy one.
    app_config.models_module = True  # type: ignore[assignment]  # any truthy value will do
    create_permissions(app_config, verbosity=0, apps=apps)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP_NAME)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames)
    )


def revoke_permissions(apps: Apps, *, app_label: str, codenames: tuple[str, ...]) -> None:
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=GROUP_NAME).first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames)
        )
