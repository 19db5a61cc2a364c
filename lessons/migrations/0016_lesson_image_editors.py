"""Content editors upload lesson images: view, add and change (alt text) them, not delete
(a lesson may still show one)."""

from django.db import migrations

from lessons.editors_group import grant_permissions, revoke_permissions

CODENAMES = ("view_lessonimage", "add_lessonimage", "change_lessonimage")


def grant(apps, schema_editor):
    grant_permissions(apps, app_label="lessons", codenames=CODENAMES)


def revoke(apps, schema_editor):
    revoke_permissions(apps, app_label="lessons", codenames=CODENAMES)


class Migration(migrations.Migration):
    dependencies = [("lessons", "0015_lesson_image")]

    operations = [migrations.RunPython(grant, revoke)]
