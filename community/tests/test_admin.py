"""Staff moderation and triage through the admin's pages."""

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.tests.factories import UserFactory
from community.models import Comment, IssueReport
from community.tests.factories import CommentFactory, IssueReportFactory, ReplyFactory
from lessons.tests.factories import LessonFactory
from notifications.models import Notification

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _action(admin_client, model: str, action: str, ids: list[int], *, confirmed: bool = True):
    """The list action as an editor runs it: picked, then confirmed on the page that asks."""
    data = {"action": action, "_selected_action": [str(i) for i in ids]}
    return admin_client.post(
        reverse(f"admin:community_{model}_changelist"),
        {**data, "post": "yes"} if confirmed else data,
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


def test_resolve_action_asks_first_and_tells_no_reporter_until_confirmed(admin_client, mailoutbox):
    report = IssueReportFactory()
    done = IssueReportFactory(status=IssueReport.Status.RESOLVED, resolved_at=timezone.now())

    response = _action(
        admin_client, "issuereport", "resolve_accepted", [report.id, done.id], confirmed=False
    )

    body = response.content.decode()
    assert "Each reporter is told their report was accepted" in body
    assert "Resolve reports: 1 of the 2 selected" in body
    assert "Already resolved: 1" in body
    assert IssueReport.objects.get(pk=report.id).status == IssueReport.Status.NEW
    assert mailoutbox == []


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


def test_hide_action_asks_first_naming_the_comments(admin_client):
    comment = CommentFactory(body="Spam, spam and eggs.")
    CommentFactory(is_hidden=True)

    response = _action(
        admin_client,
        "comment",
        "hide_comments",
        list(Comment.objects.values_list("id", flat=True)),
        confirmed=False,
    )

    body = response.content.decode()
    assert "Hide comments: 1 of the 2 selected" in body
    assert f"#{comment.id} by" in body
    assert "Spam, spam and eggs." in body
    assert "Already hidden: 1" in body
    assert Comment.objects.get(pk=comment.id).is_hidden is False


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


@pytest.mark.parametrize("model", ["comment", "issuereport", "lessonsubscription"])
def test_admin_changelists_render(admin_client, model):
    CommentFactory()
    IssueReportFactory()

    assert admin_client.get(reverse(f"admin:community_{model}_changelist")).status_code == 200


# --- Reports, as a content editor ----------------------------------------------------------


def test_editor_lists_reports_with_lesson_kind_status_assignee_age_and_block(client, editor):
    from lessons.tests.factories import TableBlockFactory

    lesson = LessonFactory(title="Attention heads")
    block = TableBlockFactory(lesson=lesson, position=3)
    IssueReportFactory(lesson=lesson, block=block, block_position=3, kind="incorrect")

    response = client.get(reverse("admin:community_issuereport_changelist"))

    body = response.content.decode()
    assert response.status_code == 200
    assert "Attention heads" in body
    assert "Incorrect content" in body
    change_url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    assert f'href="{change_url}#block-{block.id}">Table #3</a>' in body
    assert "minute" in body  # the age column
    assert [f.title for f in response.context["cl"].filter_specs][:3] == [
        "status",
        "kind",
        "assigned",
    ]


REPORT_LIST_QUERIES = 10


def test_report_list_runs_a_fixed_number_of_queries(client, editor, django_assert_num_queries):
    IssueReportFactory.create_batch(3)
    url = reverse("admin:community_issuereport_changelist")
    client.get(url)

    # the user, their permissions x2, the filters' choices (assignees, quests, lessons),
    # counts x2, the page (reports with lesson, quest, assignee and block joined), dates x2.
    with django_assert_num_queries(REPORT_LIST_QUERIES):
        client.get(url)
    IssueReportFactory.create_batch(5, assignee=editor)
    with django_assert_num_queries(REPORT_LIST_QUERIES):
        client.get(url)


def test_a_report_title_names_the_lesson_and_the_kind():
    report = IssueReportFactory(lesson=LessonFactory(title="Tokenization"), kind="typo")

    assert str(report) == f"Typo on “Tokenization” (report #{report.id})"


def test_editor_triages_a_report_in_the_change_form(client, editor, mailoutbox):
    report = IssueReportFactory(lesson=LessonFactory(title="Tokenization"))
    url = reverse("admin:community_issuereport_change", args=[report.id])

    page = client.get(url)
    response = client.post(
        url,
        {"status": "triaged", "assignee": str(editor.id), "internal_note": "Checking the source"},
    )

    assert "Typo on “Tokenization”" in page.content.decode()
    assert response.status_code == 302
    report.refresh_from_db()
    assert (report.status, report.assignee, report.internal_note) == (
        "triaged",
        editor,
        "Checking the source",
    )
    assert mailoutbox == []


def test_editor_resolving_a_report_notifies_the_reporter(
    client, editor, mailoutbox, django_capture_on_commit_callbacks
):
    reporter = UserFactory()
    report = IssueReportFactory(reporter=reporter)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:community_issuereport_change", args=[report.id]),
            {"status": "resolved", "assignee": str(editor.id), "internal_note": "fixed"},
        )

    assert response.status_code == 302
    assert Notification.objects.filter(recipient=reporter, kind="report_resolved").exists()
    assert [m.to for m in mailoutbox] == [[reporter.email]]


def test_editor_cannot_change_what_the_reporter_wrote(client, editor):
    report = IssueReportFactory(message="Original words", kind="typo")

    client.post(
        reverse("admin:community_issuereport_change", args=[report.id]),
        {
            "status": "new",
            "assignee": "",
            "internal_note": "",
            "message": "Edited",
            "kind": "other",
        },
    )

    report.refresh_from_db()
    assert (report.message, report.kind) == ("Original words", "typo")


def test_editor_assigns_reports_to_themselves_with_an_action(client, editor):
    reports = IssueReportFactory.create_batch(2)

    _action(client, "issuereport", "assign_to_me", [r.id for r in reports])

    assert IssueReport.objects.filter(assignee=editor).count() == 2
    mine = client.get(reverse("admin:community_issuereport_changelist"), {"assigned": "me"})
    assert mine.context["cl"].result_count == 2


def test_editor_cannot_delete_reports_but_a_superuser_can(client, editor):
    report = IssueReportFactory()
    delete_url = reverse("admin:community_issuereport_delete", args=[report.id])

    refused = client.post(delete_url, {"post": "yes"})
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    accepted = client.post(delete_url, {"post": "yes"})

    assert refused.status_code == 403
    assert accepted.status_code == 302
    assert not IssueReport.objects.filter(pk=report.pk).exists()


def test_editor_does_not_see_superuser_only_admin_pages(client, editor):
    index = client.get(reverse("admin:index")).content.decode()
    emails = client.get(reverse("admin:notifications_emaildelivery_changelist"))
    users = client.get(reverse("admin:accounts_user_changelist"))

    assert "Issue reports" in index
    assert "E-mail deliveries" not in index
    assert "Notifications" not in index
    assert emails.status_code == 403
    assert "Permission denied" in emails.content.decode()
    assert users.status_code == 403


def test_the_report_form_says_before_saving_what_resolving_sends(
    client, editor, mailoutbox, django_capture_on_commit_callbacks
):
    report = IssueReportFactory(
        reporter=None, contact_email="visitor@example.org", message="GPT-2 is 768 wide."
    )
    url = reverse("admin:community_issuereport_change", args=[report.id])

    body = client.get(url).content.decode()

    assert "If resolved (accepted)" in body
    assert "Resolving (accepted) e-mails the address left with the report" in body
    assert "visitor@example.org" not in body
    assert "GPT-2 is 768 wide." in body
    assert "community/admin/report-resolve.js" in body
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"status": "resolved", "assignee": "", "internal_note": ""})
    # What the form announced is what went out.
    assert [m.to for m in mailoutbox] == [["visitor@example.org"]]
    assert report.lesson.title in mailoutbox[0].subject
    assert "saving again sends nothing" in client.get(url).content.decode()


def test_the_notice_says_whether_the_reporter_is_mailed_never_their_address():
    from community.services import resolution_notice

    mailed = IssueReportFactory(
        reporter=UserFactory(email="r@example.org", email_notifications=True)
    )
    in_app = IssueReportFactory(reporter=UserFactory(email_notifications=False))
    nobody = IssueReportFactory(reporter=None, contact_email="")

    assert "e-mails the reporter and notifies them" in resolution_notice(report=mailed)
    assert "r@example.org" not in resolution_notice(report=mailed)
    assert "in the app (they get no e-mails)" in resolution_notice(report=in_app)
    assert "tells nobody" in resolution_notice(report=nobody)
