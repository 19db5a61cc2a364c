"""Writes of issue reports: file, triage, resolve or reject, and tell the reporter."""

from __future__ import annotations

from django.db import transaction
from django.template.loader import render_to_string

from accounts.models import User
from community import events
from community.models import REPORT_MESSAGE_MAX_LENGTH, IssueReport
from community.services.fanout import NotificationKind, excerpt
from learning_platform import clock
from learning_platform.errors import InvalidField
from lessons.selectors import Lesson
from notifications.services import (
    absolute_frontend_url,
    create_notification,
    send_email,
    send_emails_after_commit,
)


class InvalidReport(InvalidField):
    """A report field is not acceptable (`errors` names it)."""


def submit_report(
    *,
    lesson: Lesson,
    reporter: User | None,
    kind: str,
    message: str,
    block_id: int | None = None,
    contact_email: str = "",
    honeypot: str = "",
) -> IssueReport:
    """File an issue report on `lesson`. `reporter` is None when signed out; only then is a
    contact e-mail kept. A block reference must name a block of this lesson.

    A filled-in `honeypot` (a form field people never see) marks a bot: the report it gets
    back looks filed but is not stored, so the bot learns nothing."""
    if kind not in IssueReport.Kind.values:
        raise InvalidReport("kind", f"One of: {', '.join(IssueReport.Kind.values)}.")
    message = message.strip()
    if not message or len(message) > REPORT_MESSAGE_MAX_LENGTH:
        raise InvalidReport("message", f"Between 1 and {REPORT_MESSAGE_MAX_LENGTH} characters.")
    if honeypot:
        return IssueReport(lesson=lesson, kind=kind, message=message, created_at=clock.now())
    block = None
    if block_id is not None:
        block = lesson.blocks.filter(pk=block_id).first()
        if block is None:
            raise InvalidReport("block", "No such block in this lesson.")
    return IssueReport.objects.create(
        lesson=lesson,
        reporter=reporter,
        contact_email="" if reporter else contact_email,
        kind=kind,
        message=message,
        block=block,
        block_position=block.position if block else None,
    )


def assign_reports(*, report_ids: list[int], assignee: User | None) -> int:
    """Give these reports to `assignee` (a staff member); return how many were assigned."""
    return IssueReport.objects.filter(pk__in=report_ids).update(assignee=assignee)


def triage_report(*, report: IssueReport, assignee: User | None = None) -> IssueReport:
    """Move a report to triaged (optionally assigning it)."""
    return change_report_status(report=report, status=IssueReport.Status.TRIAGED, assignee=assignee)


def resolve_report(*, report: IssueReport) -> IssueReport:
    """Resolve a report as accepted: the reporter hears about it and it counts for them."""
    return change_report_status(report=report, status=IssueReport.Status.RESOLVED)


def reject_report(*, report: IssueReport) -> IssueReport:
    return change_report_status(report=report, status=IssueReport.Status.REJECTED)


def change_report_status(
    *, report: IssueReport, status: str, assignee: User | None = None
) -> IssueReport:
    """Set a report's status, keeping `resolved_at` in step.

    Becoming resolved (accepted) notifies the reporter and re-evaluates their achievements,
    both by tasks after commit; the notification's dedupe key makes a second resolve silent.
    """
    # community.tasks imports the services: the task module is loaded when first used.
    from community import tasks

    with transaction.atomic():
        report = IssueReport.objects.select_for_update().get(pk=report.pk)
        previous = report.status
        report.status = status
        if assignee is not None:
            report.assignee = assignee
        closed = (IssueReport.Status.RESOLVED, IssueReport.Status.REJECTED)
        if status in closed and previous not in closed:
            report.resolved_at = clock.now()
        elif status not in closed:
            report.resolved_at = None
        report.save(update_fields=["status", "assignee", "resolved_at", "updated_at"])
        if status == IssueReport.Status.RESOLVED and previous != status:
            report_id, reporter_id = report.pk, report.reporter_id
            # celery-types types a shared_task as Celery's Task; the app's is a DjangoTask.
            tasks.notify_report_resolved.delay_on_commit(report_id)  # type: ignore[attr-defined]
            if reporter_id is not None:
                events.report_accepted.announce(
                    events.ReportAccepted(user_id=reporter_id, report_id=report_id)
                )
    return report


def _resolution_words(report: IssueReport) -> tuple[str, str]:
    return (
        f"Thanks! Your report on “{report.lesson.title}” was resolved",
        f"{report.get_kind_display()}: {excerpt(report.message, markdown=False)}",
    )


def resolution_notice(*, report: IssueReport) -> str:
    """What resolving the report (accepted) will send the reporter, in the words sent: the
    admin shows it beside the status before the editor saves."""
    if report.status == IssueReport.Status.RESOLVED:
        return "Already resolved: the reporter was told then; saving again sends nothing."
    title, body = _resolution_words(report)
    what = f"“{title}” — {body}"
    reporter = report.reporter
    # Never an address: the editors reading this triage reports, not reporters (issue 41).
    if reporter is not None:
        if reporter.email_notifications:
            return f"Resolving (accepted) e-mails the reporter and notifies them in the app: {what}"
        return (
            f"Resolving (accepted) notifies the reporter in the app (they get no e-mails): {what}"
        )
    if report.contact_email:
        return (
            "Resolving (accepted) e-mails the address left with the report: "
            f"{what}, with a link to the lesson."
        )
    return "Resolving (accepted) tells nobody: the reporter was signed out and left no address."


def notify_report_resolved(*, report_id: int) -> None:
    """Tell the reporter their report was resolved: in-app plus e-mail when signed in (as they
    chose), e-mail to the contact address when signed out. Idempotent."""
    report = IssueReport.objects.select_related("lesson", "reporter").filter(pk=report_id).first()
    if report is None or report.status != IssueReport.Status.RESOLVED:
        return
    lesson = report.lesson
    title, body = _resolution_words(report)
    reporter = report.reporter
    if reporter is not None:
        created = create_notification(
            recipient_id=reporter.pk,
            kind=NotificationKind.REPORT_RESOLVED,
            title=title,
            body=body,
            url=f"/lessons/{lesson.slug}",
            dedupe_key=f"report:{report.pk}:resolved",
            data={"lesson": lesson.slug, "lesson_id": lesson.id, "report_id": report.pk},
            email=reporter.email_notifications,
        )
        # A new notification that waits for an e-mail (email=True): send it soon.
        if created is not None and reporter.email_notifications:
            send_emails_after_commit(user_id=reporter.pk)
        return
    if not report.contact_email:
        return
    context = {
        "report": report,
        "lesson": lesson,
        "lesson_url": absolute_frontend_url(f"/lessons/{lesson.slug}"),
    }
    send_email(
        key=f"report:{report.pk}:resolved",
        to_address=report.contact_email,
        subject=title,
        text_body=render_to_string("community/email/report_resolved.txt", context),
        html_body=render_to_string("community/email/report_resolved.html", context),
    )
