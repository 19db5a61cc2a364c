"""Staff moderation and triage through the admin's pages."""

import pytest
from django.urls import reverse

from accounts.tests.factories import UserFactory
from community.models import Comment, IssueReport, Notification
from community.tests.factories import CommentFactory, IssueReportFactory, ReplyFactory
from lessons.tests.factories import LessonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _action(admin_client, model: str, action: str, ids: list[int]):
    return admin_client.post(
        reverse(f"admin:community_{model}_changelist"),
        {"action": action, "_selected_action": [str(i) for i in ids]},
        follow=True,
    )


# --- Reports --------------------------------------------------------------------------------


def test_report_list_filters_by_lesson_kind_and_status_and_links_the_lesson(admin_client):
    lesson = LessonFactory(title="Attention")
    IssueReportFactory(lesson=lesson, kind="typo")
    IssueReportFactory(kind="unclear")
    url = reverse("admin:community_issuereport_changelist")

    response = admin_client.get(url, {"lesson__id__exact": lesson.id, "kind": "typo"})

    assert response.status_code == 200
    assert response.context["cl"].result_count == 1
    assert reverse("admin:lessons_lesson_change", args=[lesson.id]).encode() in response.content
    assert admin_client.get(url, {"status": "new"}).context["cl"].result_count == 2


def test_mark_triaged_action(admin_client):
    report = IssueReportFactory()

    _action(admin_client, "issuereport", "mark_triaged", [report.id])

    report.refresh_from_db()
    assert report.status == IssueReport.Status.TRIAGED


def test_resolve_action_notifies_the_reporter_and_counts_as_accepted(
    admin_client, mailoutbox, django_capture_on_commit_callbacks
):
    from community.selectors import count_accepted_reports

    reporter = UserFactory()
    report = IssueReportFactory(reporter=reporter)

    with django_capture_on_commit_callbacks(execute=True):
        _action(admin_client, "issuereport", "resolve_accepted", [report.id])

    report.refresh_from_db()
    assert report.status == IssueReport.Status.RESOLVED
    assert Notification.objects.filter(recipient=reporter, kind="report_resolved").exists()
    assert [m.to for m in mailoutbox] == [[reporter.email]]
    assert count_accepted_reports(user_id=reporter.id) == 1


def test_reject_action(admin_client):
    report = IssueReportFactory()

    _action(admin_client, "issuereport", "reject", [report.id])

    report.refresh_from_db()
    assert report.status == IssueReport.Status.REJECTED
    assert not Notification.objects.exists()


def test_resolving_in_the_change_form_goes_through_the_service(
    admin_client, mailoutbox, django_capture_on_commit_callbacks
):
    staff = UserFactory(is_staff=True)
    report = IssueReportFactory(reporter=None, contact_email="visitor@example.org")

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            reverse("admin:community_issuereport_change", args=[report.id]),
            {"status": "resolved", "assignee": str(staff.id), "internal_note": "fixed in v2"},
        )

    assert response.status_code == 302
    report.refresh_from_db()
    assert (report.status, report.assignee, report.internal_note) == (
        "resolved",
        staff,
        "fixed in v2",
    )
    assert report.resolved_at is not None
    assert [m.to for m in mailoutbox] == [["visitor@example.org"]]


def test_editing_only_the_note_does_not_notify(admin_client, mailoutbox):
    report = IssueReportFactory()

    admin_client.post(
        reverse("admin:community_issuereport_change", args=[report.id]),
        {"status": "new", "assignee": "", "internal_note": "looking"},
    )

    report.refresh_from_db()
    assert report.internal_note == "looking"
    assert mailoutbox == []


def test_learners_cannot_open_the_report_admin(client, user):
    client.force_login(user)

    response = client.get(reverse("admin:community_issuereport_changelist"))

    assert response.status_code == 302  # to the admin login


# --- Comments -------------------------------------------------------------------------------


def test_hide_action_hides_a_comment_and_its_thread(admin_client, api_client):
    top = CommentFactory()
    ReplyFactory(parent=top)

    _action(admin_client, "comment", "hide_comments", [top.id])

    top.refresh_from_db()
    assert top.is_hidden
    response = api_client.get(f"/api/v1/lessons/{top.lesson.slug}/comments/")
    assert response.json()["results"] == []


def test_hiding_in_the_change_form_records_the_reason(admin_client):
    comment = CommentFactory()

    admin_client.post(
        reverse("admin:community_comment_change", args=[comment.id]),
        {"is_hidden": "on", "hidden_reason": "off-topic"},
    )

    comment.refresh_from_db()
    assert comment.is_hidden
    assert comment.hidden_reason == "off-topic"
    assert comment.hidden_at is not None


def test_unhide_action_shows_a_comment_again(admin_client):
    comment = CommentFactory(is_hidden=True)

    _action(admin_client, "comment", "unhide_comments", [comment.id])

    assert Comment.objects.get(pk=comment.id).is_hidden is False


@pytest.mark.parametrize(
    "model", ["comment", "issuereport", "notification", "emaildelivery", "lessonsubscription"]
)
def test_admin_changelists_render(admin_client, model):
    CommentFactory()
    IssueReportFactory()

    assert admin_client.get(reverse(f"admin:community_{model}_changelist")).status_code == 200
