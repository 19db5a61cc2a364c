"""Seed the reference catalogue from exercises/data (figures from the models' config.json)."""

from django.db import migrations


def seed(apps, schema_editor):
    from exercises.catalogue_seed import reference_rows

    ModelReference = apps.get_model("exercises", "ModelReference")
    for row in reference_rows():
        name = row.pop("name")
        ModelReference.objects.update_or_create(name=name, defaults=row)


def unseed(apps, schema_editor):
    from exercises.catalogue_seed import reference_rows

    names = [row["name"] for row in reference_rows()]
    apps.get_model("exercises", "ModelReference").objects.filter(name__in=names).delete()


class Migration(migrations.Migration):
    dependencies = [("exercises", "0001_initial")]

    operations = [migrations.RunPython(seed, unseed)]
