import pytest

from accounts.tests.factories import UserFactory
from community import services
from community.models import IssueReport
from community.tests.factories import (
    CommentFactory,
    IssueReportFactory,
    LessonSubscriptionFactory,
    ReplyFactory,
)
from lessons.tests.factories import LessonFactory
from notifications.models import EmailState, Notification

pytestmark = pytest.mark.django_db


# --- Fan-out of a new comment ---------------------------------------------------------------


def _notified(comment) -> dict[int, str]:
    return dict(
        Notification.objects.filter(dedupe_key=f"comment:{comment.id}").values_list(
            "recipient_id", "kind"
        )
    )


def test_reply_notifies_the_parent_author_and_never_the_replier():
    top = CommentFactory()
    reply = ReplyFactory(parent=top)

    services.notify_about_comment(comment_id=reply.id)

    assert _notified(reply) == {top.author_id: "comment_reply"}


def test_a_reply_notification_shows_the_comment_as_plain_text_not_markdown():
    top = CommentFactory()
    reply = ReplyFactory(
        parent=top, body="**Bold** claim: `d_model` is [the width](https://example.com/w)."
    )

    services.notify_about_comment(comment_id=reply.id)

    assert Notification.objects.get().body == "Bold claim: d_model is the width."


def test_a_report_resolution_quotes_the_report_as_written(user, django_capture_on_commit_callbacks):
    report = IssueReportFactory(reporter=user, message="Step **2** of 3 is off")

    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_report(report=report)

    assert Notification.objects.get().body.endswith("Step **2** of 3 is off")


def test_reply_to_a_reply_notifies_its_author_as_a_reply():
    top = CommentFactory()
    first = ReplyFactory(parent=top)
    second = ReplyFactory(parent=top, reply_to=first)

    services.notify_about_comment(comment_id=second.id)

    assert _notified(second) == {first.author_id: "comment_reply", top.author_id: "lesson_comment"}


def test_comment_notifies_explicit_followers_but_not_explicit_unfollowers():
    lesson = LessonFactory()
    follower = LessonSubscriptionFactory(lesson=lesson, subscribed=True).user
    earlier = CommentFactory(lesson=lesson)
    LessonSubscriptionFactory(user=earlier.author, lesson=lesson, subscribed=False)
    comment = CommentFactory(lesson=lesson)

    services.notify_about_comment(comment_id=comment.id)

    assert _notified(comment) == {follower.id: "lesson_comment"}


def test_profile_default_off_means_no_reply_notifications():
    quiet = UserFactory(reply_notifications=False)
    top = CommentFactory(author=quiet)
    reply = ReplyFactory(parent=top)

    services.notify_about_comment(comment_id=reply.id)

    assert _notified(reply) == {}


def test_explicit_follow_beats_a_profile_default_off():
    quiet = UserFactory(reply_notifications=False)
    top = CommentFactory(author=quiet)
    LessonSubscriptionFactory(user=quiet, lesson=top.lesson, subscribed=True)
    reply = ReplyFactory(parent=top)

    services.notify_about_comment(comment_id=reply.id)

    assert _notified(reply) == {quiet.id: "comment_reply"}


def test_someone_both_parent_author_and_follower_is_notified_once():
    top = CommentFactory()
    LessonSubscriptionFactory(user=top.author, lesson=top.lesson, subscribed=True)
    CommentFactory(lesson=top.lesson, author=top.author)
    reply = ReplyFactory(parent=top)

    services.notify_about_comment(comment_id=reply.id)

    assert Notification.objects.filter(recipient=top.author).count() == 1


def test_a_late_fan_out_does_not_notify_people_who_commented_afterwards():
    top = CommentFactory()
    reply = ReplyFactory(parent=top)
    later = ReplyFactory(parent=top)

    services.notify_about_comment(comment_id=reply.id)

    assert later.author_id not in _notified(reply)


def test_inactive_learners_are_not_notified():
    top = CommentFactory(author=UserFactory(is_active=False))
    reply = ReplyFactory(parent=top)

    services.notify_about_comment(comment_id=reply.id)

    assert _notified(reply) == {}


def test_fan_out_twice_creates_nothing_new():
    top = CommentFactory()
    reply = ReplyFactory(parent=top)

    services.notify_about_comment(comment_id=reply.id)
    services.notify_about_comment(comment_id=reply.id)

    assert Notification.objects.count() == 1


def test_fan_out_keeps_no_email_waiting_for_learners_without_emails(
    django_capture_on_commit_callbacks,
):
    top = CommentFactory(author=UserFactory(email_notifications=False))
    reply = ReplyFactory(parent=top)

    with django_capture_on_commit_callbacks(execute=True):
        services.notify_about_comment(comment_id=reply.id)

    assert Notification.objects.get().email_state == EmailState.NOT_WANTED


def test_fan_out_of_a_hidden_comment_notifies_nobody():
    reply = ReplyFactory(parent=CommentFactory(), is_hidden=True)

    services.notify_about_comment(comment_id=reply.id)

    assert not Notification.objects.exists()


# --- Issue reports --------------------------------------------------------------------------


def test_resolving_a_signed_in_report_notifies_in_app_and_by_email(
    user, mailoutbox, django_capture_on_commit_callbacks
):
    report = IssueReportFactory(reporter=user)

    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_report(report=report)

    report.refresh_from_db()
    assert report.status == IssueReport.Status.RESOLVED
    assert report.resolved_at is not None
    notification = Notification.objects.get(recipient=user)
    assert notification.kind == "report_resolved"
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == [user.email]


def test_resolving_a_signed_out_report_emails_the_contact_address(
    mailoutbox, django_capture_on_commit_callbacks
):
    report = IssueReportFactory(reporter=None, contact_email="someone@example.org")

    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_report(report=report)

    assert [m.to for m in mailoutbox] == [["someone@example.org"]]
    assert "List-Unsubscribe" not in mailoutbox[0].extra_headers
    assert not Notification.objects.exists()


def test_resolving_twice_notifies_once(user, mailoutbox, django_capture_on_commit_callbacks):
    report = IssueReportFactory(reporter=user)

    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_report(report=report)
        services.triage_report(report=report)
        services.resolve_report(report=report)

    assert Notification.objects.count() == 1
    assert len(mailoutbox) == 1


def test_rejecting_a_report_notifies_nobody(user, mailoutbox, django_capture_on_commit_callbacks):
    report = IssueReportFactory(reporter=user)

    with django_capture_on_commit_callbacks(execute=True):
        services.reject_report(report=report)

    report.refresh_from_db()
    assert report.status == IssueReport.Status.REJECTED
    assert report.resolved_at is not None
    assert not Notification.objects.exists()
    assert mailoutbox == []


def test_accepting_a_report_evaluates_the_reporters_achievements(
    user, monkeypatch, django_capture_on_commit_callbacks
):
    import achievements.services

    evaluated: list[int] = []
    monkeypatch.setattr(
        achievements.services,
        "evaluate_achievements",
        lambda *, user_id, trigger=None: evaluated.append((user_id, trigger)) or [],
    )
    report = IssueReportFactory(reporter=user)

    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_report(report=report)

    assert evaluated == [(user.id, "report_accepted")]


def test_accepted_report_unlocks_the_reports_achievement(user, django_capture_on_commit_callbacks):
    from achievements.models import Achievement, RuleKind
    from achievements.selectors import achievements_for_learner

    Achievement.objects.update_or_create(
        slug="test-first-report",
        defaults={"title": "Bug hunter", "rule_kind": RuleKind.REPORTS_ACCEPTED, "threshold": 1},
    )
    report = IssueReportFactory(reporter=user)

    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_report(report=report)

    unlocked = {
        s["achievement"].slug for s in achievements_for_learner(user_id=user.id) if s["unlocked"]
    }
    assert "test-first-report" in unlocked


def test_posting_a_comment_evaluates_the_authors_achievements(
    user, monkeypatch, django_capture_on_commit_callbacks
):
    import achievements.services

    evaluated: list[int] = []
    monkeypatch.setattr(
        achievements.services,
        "evaluate_achievements",
        lambda *, user_id, trigger=None: evaluated.append((user_id, trigger)) or [],
    )

    with django_capture_on_commit_callbacks(execute=True):
        services.post_comment(author=user, lesson=LessonFactory(), body="hi")

    assert evaluated == [(user.id, "comment_posted")]


def test_hiding_and_unhiding_a_comment():
    comment = CommentFactory()

    services.hide_comment(comment=comment, reason="spam")
    assert comment.is_hidden
    assert comment.hidden_reason == "spam"
    assert comment.hidden_at is not None

    services.unhide_comment(comment=comment)
    assert not comment.is_hidden
    assert comment.hidden_at is None
