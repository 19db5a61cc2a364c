import pytest
from django.urls import reverse

from accounts.tests.factories import UserFactory
from community.tests.factories import CommentFactory, IssueReportFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


# Moved from community/tests/test_admin.py with the models (their admin URLs now carry the
# notifications app label).
@pytest.mark.parametrize("model", ["notification", "emaildelivery"])
def test_admin_changelists_render(admin_client, model):
    CommentFactory()
    IssueReportFactory()

    assert admin_client.get(reverse(f"admin:notifications_{model}_changelist")).status_code == 200
