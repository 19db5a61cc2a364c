"""Addresses attached to one account while another account holds them as its own (issue 41):
the attack this closes left them behind. Each is detached from the account that attached it,
so the owner's password, sign-in and reset work again."""

from django.db import migrations
from django.db.models import Exists, OuterRef
from django.db.models.functions import Lower


def detach_addresses_held_elsewhere(apps, schema_editor):
    EmailAddress = apps.get_model("account", "EmailAddress")
    User = apps.get_model("accounts", "User")
    owner = User.objects.annotate(address=Lower("email")).filter(
        address=Lower(OuterRef("email"))
    ).exclude(pk=OuterRef("user_id"))
    EmailAddress.objects.filter(Exists(owner)).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_display_name_key_unique"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(detach_addresses_held_elsewhere, migrations.RunPython.noop)]
