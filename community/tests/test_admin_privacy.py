"""Content editors triage reports without learning who wrote them (issue 41, item 6): no
reporter's e-mail address on the report pages, and no search by one."""

import pytest
from django.urls import reverse

from accounts.tests.factories import UserFactory
from community.tests.factories import IssueReportFactory

pytestmark = pytest.mark.django_db


def test_an_editor_sees_no_reporters_address_and_cannot_search_by_one(client, editor):
    signed_in = IssueReportFactory(
        reporter=UserFactory(email="reporter@example.org", display_name="Ada L")
    )
    signed_out = IssueReportFactory(reporter=None, contact_email="visitor@example.org")
    listing = reverse("admin:community_issuereport_changelist")

    pages = [
        client.get(listing).content.decode(),
        client.get(reverse("admin:community_issuereport_change", args=[signed_in.id])),
        client.get(reverse("admin:community_issuereport_change", args=[signed_out.id])),
    ]
    found = client.get(listing, {"q": "reporter@example.org"}).context["cl"].result_count

    text = "".join(p if isinstance(p, str) else p.content.decode() for p in pages)
    assert "reporter@example.org" not in text
    assert "visitor@example.org" not in text
    assert "Ada L" in text  # the reporter, as other learners see them
    assert found == 0
