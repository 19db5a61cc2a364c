import importlib
import re

import pytest
from django.apps import apps

from accounts.models import User
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_data_migration_makes_stored_names_one_clean_line():
    migration = importlib.import_module("accounts.migrations.0003_clean_display_names")
    dirty = UserFactory(display_name="Eve\r\nBcc:\x07 victim@example.com")
    clean = UserFactory(display_name="Ada Lovelace")

    migration.clean_display_names(apps, None)

    dirty.refresh_from_db()
    clean.refresh_from_db()
    assert dirty.display_name == "Eve Bcc: victim@example.com"
    assert clean.display_name == "Ada Lovelace"


def test_the_data_migration_gives_each_learner_their_own_handle():
    migration = importlib.import_module("accounts.migrations.0005_give_each_learner_a_handle")
    users = UserFactory.create_batch(5, public_handle="Learner 100000")

    migration.give_each_learner_a_handle(apps, None)

    handles = [u.public_handle for u in users if not u.refresh_from_db()]
    assert all(re.fullmatch(r"Learner \d{6}", h) for h in handles)
    assert len(set(handles)) > 1


def test_the_data_migration_disambiguates_existing_look_alike_names():
    migration = importlib.import_module("accounts.migrations.0007_disambiguate_display_names")
    names = [
        "Flush One",
        "flush one",
        "Flush \u041ene",
        "Flush One\U000e0041",
        "Ada",
        "Flush One 2",
    ]
    names[4] = "Ada\u3164\u00a0Lovelace"  # refused today, stored before it was
    users = UserFactory.create_batch(len(names))
    for user, name in zip(users, names, strict=True):
        # As stored before the key existed (the constraint leaves empty keys alone).
        User.objects.filter(pk=user.pk).update(display_name=name, display_name_key="")

    migration.disambiguate_display_names(apps, None)

    stored = list(
        User.objects.filter(pk__in=[u.pk for u in users])
        .order_by("pk")
        .values_list("display_name", "display_name_key")
    )
    assert [name for name, _ in stored] == [
        "Flush One",
        "flush one 2",
        "Flush \u041ene 3",
        "Flush One 4",
        "Ada Lovelace",
        "Flush One 2 2",
    ]
    assert len({key for _, key in stored}) == len(stored)


def test_the_data_migration_detaches_addresses_another_account_holds_as_its_own():
    from allauth.account.models import EmailAddress

    migration = importlib.import_module("accounts.migrations.0009_detach_addresses_held_elsewhere")
    owner = UserFactory(email="owner@example.com")
    squatter = UserFactory(email="squatter@example.com")
    # As the attack of issue 41 left them: the owner's address verified on the squatter's account.
    EmailAddress.objects.create(user=owner, email="owner@example.com", primary=True)
    EmailAddress.objects.create(user=squatter, email="squatter@example.com", primary=True)
    EmailAddress.objects.create(user=squatter, email="Owner@example.com", verified=True)
    EmailAddress.objects.create(user=squatter, email="spare@example.com", verified=True)

    migration.detach_addresses_held_elsewhere(apps, None)

    assert sorted(EmailAddress.objects.values_list("user__email", "email")) == [
        ("owner@example.com", "owner@example.com"),
        ("squatter@example.com", "spare@example.com"),
        ("squatter@example.com", "squatter@example.com"),
    ]
