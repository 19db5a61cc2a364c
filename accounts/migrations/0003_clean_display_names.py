"""Display names stored before control characters were refused become one clean line."""

from django.db import migrations

from learning_platform.text import has_control_characters, single_line


def clean_display_names(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user in User.objects.exclude(display_name="").only("pk", "display_name").iterator():
        if has_control_characters(user.display_name):
            cleaned = single_line(user.display_name, max_length=60)
            User.objects.filter(pk=user.pk).update(display_name=cleaned)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_display_name_validator")]

    operations = [migrations.RunPython(clean_display_names, migrations.RunPython.noop)]
