"""A published lesson keeps no "publish at" (issue 41): those published by the beat task or by
hand before this rule drop theirs, so unpublishing them hides them."""

from django.db import migrations


def drop_schedules_of_published_lessons(apps, schema_editor):
    Lesson = apps.get_model("lessons", "Lesson")
    Lesson.objects.filter(published=True, publish_at__isnull=False).update(publish_at=None)


class Migration(migrations.Migration):
    dependencies = [("lessons", "0006_block_check")]

    operations = [
        migrations.RunPython(drop_schedules_of_published_lessons, migrations.RunPython.noop)
    ]
