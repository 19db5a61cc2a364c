"""The soak's invariants (bench/soak.py): read from the database, the delivered mail and the
learners' log once the backlog has settled, and printed as one table."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench.soak_learners import Log


def settled() -> bool:
    from exercises.models import Submission, SubmissionStatus
    from learning_platform.models import UnsentTask
    from notifications.models import EmailDelivery, EmailState, Notification

    return not (
        UnsentTask.objects.exists()
        or Submission.objects.filter(
            status__in=[SubmissionStatus.QUEUED, SubmissionStatus.GRADING]
        ).exists()
        or Notification.objects.filter(email_state=EmailState.PENDING).exists()
        or EmailDelivery.objects.filter(sent_at__isnull=True, failed_at__isnull=True).exists()
    )


RESET_MARK = "/account/password/reset/key/"
VERIFY_MARK = "/account/verify-email/"


def invariants(
    log: Log,
    mail_dir: Path,
    drained: bool,
    resets: list[str] | tuple[str, ...] = (),
    faults: tuple[str, ...] = ("unreachable",),
) -> list[tuple[str, bool, str]]:
    """The table's rows; a 5xx is allowed only while an outage whose name holds one of
    `faults` lasted (plus a grace of two seconds)."""
    from django.db.models import Count, Sum

    from community.models import Comment
    from exercises.models import Submission, SubmissionStatus
    from learning_platform.models import UnsentTask
    from notifications.models import EmailDelivery, EmailState, Notification
    from progress.models import LearnerStats, LessonCompletion, XPAward

    rows: list[tuple[str, bool, str]] = []
    twice = (
        LessonCompletion.objects.values("user", "lesson").annotate(n=Count("id")).filter(n__gt=1)
    )
    recorded = {}
    for user_id, slug in LessonCompletion.objects.values_list("user_id", "lesson__slug"):
        recorded.setdefault(user_id, set()).add(slug)
    missing = sum(len(slugs - recorded.get(u, set())) for u, slugs in log.completed.items())
    total = LessonCompletion.objects.count()
    rows.append(("every completion once", not twice.exists() and missing == 0,
                 f"{total} completions, {twice.count()} twice, {missing} missing"))  # fmt: skip

    ledger = dict(XPAward.objects.values_list("user").annotate(s=Sum("amount")))
    wrong = [
        u
        for u, xp in LearnerStats.objects.values_list("user_id", "xp_total")
        if xp != ledger.get(u, 0)
    ]
    paid_twice = (
        XPAward.objects.values("user", "source_type", "source_id").annotate(n=Count("id"))
        .filter(n__gt=1).count()
    )  # fmt: skip
    rows.append(("XP equal to the sum of its sources", not wrong and not paid_twice,
                 f"{len(ledger)} learners with XP, {len(wrong)} wrong, {paid_twice} paid twice"))  # fmt: skip

    statuses = Counter(Submission.objects.values_list("status", flat=True))
    waiting = statuses[SubmissionStatus.QUEUED] + statuses[SubmissionStatus.GRADING]
    rows.append(("every submission graded", waiting == 0 and sum(statuses.values()) > 0,
                 f"{sum(statuses.values())} submissions, {waiting} not graded ({dict(statuses)})"))  # fmt: skip

    # A reply in a thread the moderator hid is withdrawn from its notifications (soak_abuse).
    replies = (
        Comment.objects.filter(pk__in=log.replies)
        .exclude(is_hidden=True)
        .exclude(parent__is_hidden=True)
        .select_related("reply_to")
    )
    for_replies = Notification.objects.filter(
        dedupe_key__in=[f"comment:{r.pk}" for r in replies]
    ).count()
    not_once = []
    for reply in replies:
        answered = Notification.objects.filter(
            dedupe_key=f"comment:{reply.pk}", recipient_id=reply.reply_to.author_id
        ).count()
        if reply.reply_to.author_id != reply.author_id and answered != 1:
            not_once.append(reply.pk)
    rows.append(("every reply notified exactly once", not not_once and bool(log.replies),
                 f"{len(log.replies)} replies ({len(log.replies) - len(replies)} hidden), "
                 f"{len(not_once)} not notified exactly once, "
                 f"{for_replies} notifications for them (followers included)"))  # fmt: skip

    delivered = [
        m for f in mail_dir.iterdir() for m in f.read_text().split("-" * 79) if m.strip()
    ] if mail_dir.exists() else []  # fmt: skip
    # Digests only: the password resets asked for are checked below, and the confirmation
    # e-mails of sign-ups and added addresses are allauth's, not deliveries.
    messages = [m for m in delivered if RESET_MARK not in m and VERIFY_MARK not in m]
    sent = EmailDelivery.objects.filter(sent_at__isnull=False).count()
    emailed = Notification.objects.filter(email_state=EmailState.BATCHED).count()
    rows.append(("every reply e-mailed at most once", len(messages) <= sent,
                 f"{sent} e-mails sent covering {emailed} notifications, {len(messages)} "
                 "messages delivered (more than sent = a duplicate)"))  # fmt: skip

    grace = 2.0
    errors = [(t, what, s) for t, what, s in log.answers if s >= 500]
    windows = [(b - 0.5, e + grace) for name, b, e in log.outages if any(f in name for f in faults)]
    outside = [x for x in errors if not any(b <= x[0] <= e for b, e in windows)]
    rows.append(("no 500 outside the seconds a component was down", not outside,
                 f"{len(log.answers)} answers, {len(errors)} 5xx/failed connections, "
                 f"{len(outside)} outside outages {Counter(w for _, w, _ in outside)}"))  # fmt: skip

    if resets:
        reached = {e for e in resets if any(RESET_MARK in m and e in m for m in delivered)}
        rows.append(("every reset e-mailed", len(reached) == len(set(resets)),
                     f"{len(set(resets))} resets asked for, {len(reached)} reached the mail "
                     f"server, {sum(RESET_MARK in m for m in delivered)} reset e-mails"))  # fmt: skip

    unsent = UnsentTask.objects.count()
    unsent_mail = EmailDelivery.objects.filter(sent_at__isnull=True, failed_at__isnull=True).count()
    pending = Notification.objects.filter(email_state=EmailState.PENDING).count()
    rows.append(("nothing stuck", drained and not (unsent or unsent_mail or pending),
                 f"{unsent} unsent tasks, {pending} notifications waiting, {unsent_mail} "
                 "e-mails unsent"))  # fmt: skip
    return rows


def bomb_invariant(log: Log) -> tuple[str, bool, str]:
    """The Markdown bombs: each post or edit answered in seconds, not minutes, and every bomb
    stored as rendered, sanitized HTML."""
    from community.models import Comment

    stored = Comment.objects.filter(pk__in=log.bombs).values_list("body_html", flat=True)
    unrendered = sum(1 for html in stored if not html.startswith("<p>") or "<script" in html)
    slowest = max(log.bomb_seconds, default=0.0)
    # Generous: the answer includes retries through the outages (Redis, broker).
    ok = bool(log.bombs) and unrendered == 0 and slowest < 15
    return ("Markdown bombs answered at once", ok,
            f"{len(log.bomb_seconds)} bomb posts and edits, slowest {slowest:.2f}s, "
            f"{len(log.bombs)} bombs stored, {unrendered} not rendered")  # fmt: skip


def print_table(rows, log: Log, load_seconds: float) -> None:
    statuses = Counter(s for _, _, s in log.answers)
    print(f"\nrequests: {len(log.answers)} in {load_seconds:.0f}s; status codes {dict(statuses)}")
    for name, began, ended in log.outages:
        print(f"outage: {name} for {ended - began:.1f}s")
    width = max(len(name) for name, _, _ in rows)
    print(f"\n{'invariant':<{width}}  result  figures")
    for name, ok, detail in rows:
        print(f"{name:<{width}}  {'ok' if ok else 'BROKEN':<6}  {detail}")
