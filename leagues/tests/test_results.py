"""The week's result told to each member at the close: an in-app notification, and an e-mail
for a move when they take notifications by e-mail; never twice."""

from datetime import UTC, date, datetime
from importlib import import_module

import pytest
import time_machine
from django.apps import apps as django_apps

from accounts.models import User
from accounts.tests.factories import UserFactory
from leagues import services, tasks
from leagues.models import Membership
from leagues.tests.factories import CohortFactory, MembershipFactory
from notifications import tasks as notification_tasks
from notifications.models import EmailDelivery, Notification

AFTER_THE_WEEK = datetime(2026, 3, 16, 1, tzinfo=UTC)


def _silver_cohort(*, members: int = 13, e_mail_off: tuple[int, ...] = ()) -> list[int]:
    """A Silver cohort (13: the top 7 move up, the bottom 5 down, 1 stays); ids best first."""
    cohort = CohortFactory(tier=1)
    return [
        MembershipFactory(
            cohort=cohort,
            xp=1000 - n,
            user=UserFactory(email_notifications=n not in e_mail_off),
        ).user_id
        for n in range(members)
    ]


def _close(django_capture_on_commit_callbacks) -> None:
    with (
        django_capture_on_commit_callbacks(execute=True),
        time_machine.travel(AFTER_THE_WEEK, tick=False),
    ):
        tasks.close_ended_weeks()


def _titles(user_ids: list[int]) -> list[str]:
    titles = dict(
        Notification.objects.filter(recipient_id__in=user_ids).values_list("recipient_id", "title")
    )
    return [titles.get(u, "") for u in user_ids]


def test_the_close_tells_each_member_their_move_in_app_linking_to_the_league(
    db, django_capture_on_commit_callbacks
):
    ranked = _silver_cohort()

    _close(django_capture_on_commit_callbacks)

    assert (
        _titles(ranked)
        == ["You moved up to Gold"] * 7
        + ["You stayed in Silver"]
        + ["You moved down to Bronze"] * 5
    )
    third = Notification.objects.get(recipient_id=ranked[2])
    assert (third.kind, third.url) == ("league_result", "/league")
    assert third.body == "You finished 3rd of 13 in the Silver league, 9 Mar to 15 Mar 2026."
    assert third.data == {"week": "2026-03-09", "tier_before": 1, "tier_after": 2, "rank": 3}
    assert list(Membership.objects.order_by("rank").values_list("user_id", flat=True)) == ranked


def test_a_move_is_e_mailed_to_those_who_take_e_mails_and_staying_is_not(
    db, django_capture_on_commit_callbacks, mailoutbox, settings
):
    ranked = _silver_cohort(e_mail_off=(1, 12))

    _close(django_capture_on_commit_callbacks)

    # 1 (up) and 12 (down) turned e-mails off; 7 stayed.
    wanted = {ranked[n] for n in (0, 2, 3, 4, 5, 6, 8, 9, 10, 11)}
    addresses = dict(User.objects.values_list("email", "pk"))
    assert sorted(addresses[m.to[0]] for m in mailoutbox) == sorted(wanted)
    first = next(m for m in mailoutbox if addresses[m.to[0]] == ranked[0])
    assert first.subject == "You moved up to Gold"
    assert f"{settings.FRONTEND_URL}/league" in first.body
    assert first.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    skipped = Notification.objects.filter(recipient_id__in=[ranked[1], ranked[7], ranked[12]])
    assert set(skipped.values_list("email_state", flat=True)) == {"none"}


def test_the_close_queues_one_e_mail_task_for_the_cohort(
    db, django_capture_on_commit_callbacks, monkeypatch
):
    ranked = _silver_cohort(e_mail_off=(1,))
    queued: list[list[int]] = []
    monkeypatch.setattr(
        notification_tasks.send_notification_emails_to, "delay_on_commit", queued.append
    )

    _close(django_capture_on_commit_callbacks)

    assert [sorted(ids) for ids in queued] == [sorted(ranked[:1] + ranked[2:7] + ranked[8:])]


def test_closing_again_or_resuming_tells_nobody_twice(
    db, django_capture_on_commit_callbacks, mailoutbox
):
    ranked = _silver_cohort()
    _close(django_capture_on_commit_callbacks)
    sent = len(mailoutbox)
    cohort_id = Membership.objects.get(user_id=ranked[0]).cohort_id

    _close(django_capture_on_commit_callbacks)
    with time_machine.travel(AFTER_THE_WEEK, tick=False):
        # The close itself, asked again for a cohort it closed: nothing to do.
        assert services.close_cohort(cohort_id=cohort_id) is False

    assert Notification.objects.count() == 13
    assert len(mailoutbox) == sent == 12
    assert EmailDelivery.objects.count() == 12


def test_a_close_killed_before_its_commit_is_told_once_when_run_again(
    db, django_capture_on_commit_callbacks, mailoutbox, monkeypatch
):
    ranked = _silver_cohort()
    original = services.results.tell_results

    def killed(**kwargs):
        original(**kwargs)
        raise SystemExit("the worker was killed")

    monkeypatch.setattr(services.results, "tell_results", killed)
    with pytest.raises(SystemExit):
        _close(django_capture_on_commit_callbacks)
    # Rolled back with the tiers: nothing said, nothing sent.
    assert (Notification.objects.count(), len(mailoutbox)) == (0, 0)
    assert Membership.objects.filter(tier_after__isnull=False).count() == 0

    monkeypatch.setattr(services.results, "tell_results", original)
    _close(django_capture_on_commit_callbacks)

    assert _titles(ranked)[0] == "You moved up to Gold"
    assert Notification.objects.count() == 13
    assert len(mailoutbox) == 12


def test_the_highest_tier_stays_at_the_top_and_the_lowest_at_the_bottom(
    db, django_capture_on_commit_callbacks
):
    diamond = CohortFactory(tier=4)
    top = MembershipFactory(cohort=diamond, xp=50).user_id
    [MembershipFactory(cohort=diamond, xp=n) for n in range(5)]
    bronze = CohortFactory(tier=0)
    last = MembershipFactory(cohort=bronze, xp=1).user_id
    [MembershipFactory(cohort=bronze, xp=100 + n) for n in range(10)]

    _close(django_capture_on_commit_callbacks)

    assert _titles([top, last]) == ["You stayed in Diamond", "You stayed in Bronze"]


def test_the_migration_ranks_the_members_of_cohorts_closed_before_the_rank_was_stored(db):
    ranked = _silver_cohort(members=4)
    still_open = CohortFactory(week=date(2026, 3, 16), ends_at=datetime(2026, 3, 23, tzinfo=UTC))
    open_member = MembershipFactory(cohort=still_open).pk
    with time_machine.travel(AFTER_THE_WEEK, tick=False):
        services.close_ended_cohorts()
    Membership.objects.update(rank=None)
    backfill = import_module("leagues.migrations.0003_backfill_membership_rank").backfill_ranks

    backfill(django_apps, None)

    ranks = dict(Membership.objects.values_list("user_id", "rank"))
    assert [ranks[u] for u in ranked] == [1, 2, 3, 4]
    assert Membership.objects.get(pk=open_member).rank is None
