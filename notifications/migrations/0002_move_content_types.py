"""Carry the content types of the moved models over to this app, so the permissions granted on
them and the admin's history of them keep pointing at the right models (a fresh database has
none yet: Django creates content types after migrating)."""

from django.db import migrations

MODELS = ("notification", "emaildelivery")


def _relabel(apps, *, old: str, new: str) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if content_type.objects.filter(app_label=new, model=model).exists():
            continue
        content_type.objects.filter(app_label=old, model=model).update(app_label=new)


def forwards(apps, schema_editor):
    _relabel(apps, old="community", new="notifications")


def backwards(apps, schema_editor):
    _relabel(apps, old="notifications", new="community")


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
