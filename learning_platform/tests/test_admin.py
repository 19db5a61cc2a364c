import pytest
from django.test import Client

from accounts.tests.factories import UserFactory
from learning_platform.models import UnsentTask

pytestmark = pytest.mark.django_db


def test_staff_see_the_tasks_kept_while_the_broker_was_down_read_only():
    UnsentTask.objects.create(task="community.notify_about_comment", args=[7], last_error="down")
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    listing = client.get("/admin/learning_platform/unsenttask/")
    adding = client.get("/admin/learning_platform/unsenttask/add/")

    assert listing.status_code == 200
    assert "community.notify_about_comment" in listing.content.decode()
    assert adding.status_code == 403
