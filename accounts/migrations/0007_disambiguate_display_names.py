"""Display names stored before they were normalised and unique get their skeleton key.

Invisible and formatting characters are removed and the name NFKC-normalised; a name that
then looks like an earlier learner's (by skeleton) gets a visible number ("Ada 2"), so the
unique constraint of the next migration can be added over any data.
"""

from django.db import migrations

from accounts.display_names import display_name_key, is_refused, normalize_display_name

MAX_LENGTH = 60


def _visible(name: str) -> str:
    # A special space becomes a plain one; other refused characters go.
    kept = (" " if c.isspace() else "" if is_refused(c) else c for c in name)
    return normalize_display_name("".join(kept))


def disambiguate_display_names(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    taken: set[str] = set()
    users = User.objects.exclude(display_name="").only("pk", "display_name").order_by("pk")
    for user in users.iterator():
        name = _visible(user.display_name)[:MAX_LENGTH].strip()
        key = display_name_key(name)
        number = 1
        candidate = name
        while key in taken:
            number += 1
            suffix = f" {number}"
            candidate = name[: MAX_LENGTH - len(suffix)].rstrip() + suffix
            key = display_name_key(candidate)
        if key:
            taken.add(key)
        User.objects.filter(pk=user.pk).update(display_name=candidate, display_name_key=key)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_display_name_key")]

    operations = [migrations.RunPython(disambiguate_display_names, migrations.RunPython.noop)]
