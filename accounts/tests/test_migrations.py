import importlib
import re

import pytest
from django.apps import apps

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
