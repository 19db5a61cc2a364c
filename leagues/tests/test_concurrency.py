"""Two ledger writes for several learners each, placing them in the same cohorts at the same
moment, on real connections (PostgreSQL: row locks)."""

import threading
from datetime import UTC, datetime

import pytest
import time_machine
from django.db import connection, transaction

from accounts.tests.factories import UserFactory
from leagues.models import Cohort, Leaguer, Membership
from leagues.tests.factories import CohortFactory, MembershipFactory
from learning_platform.tests.waiting import wait_until
from progress import services as progress

WEDNESDAY = datetime(2026, 3, 11, 10, tzinfo=UTC)


def writers_blocked() -> int:
    """How many other connections wait for a lock another one holds now."""
    with connection.cursor() as cursor:
        # Statistics views are a snapshot kept until the transaction ends.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            " AND cardinality(pg_blocking_pids(pid)) > 0"
        )
        (waiting,) = cursor.fetchone()
    return waiting


def hold(cohort: Cohort, held: threading.Event, release: threading.Event) -> None:
    """Hold the cohort's row lock until `release`."""
    try:
        with transaction.atomic():
            Cohort.objects.select_for_update().get(pk=cohort.pk)
            held.set()
            release.wait(timeout=30)
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_two_batch_writes_meeting_the_same_cohorts_in_opposite_order_both_succeed():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite runs one writer at a time")
    # given: a Bronze and a Silver cohort of this week with a member each, and four new learners
    # whose ids put them in opposite orders: the first write meets Bronze then Silver, the
    # second Silver then Bronze (placed and new learners alike).
    bronze = MembershipFactory(cohort=CohortFactory(tier=0)).cohort
    silver = MembershipFactory(cohort=CohortFactory(tier=1)).cohort
    bronze_member, silver_member = (
        Membership.objects.get(cohort=cohort).user_id for cohort in (bronze, silver)
    )
    learners = [UserFactory(time_zone="UTC") for _ in range(4)]
    tiers = [0, 1, 1, 0]
    Leaguer.objects.bulk_create(
        Leaguer(user_id=u.pk, tier=t) for u, t in zip(learners, tiers, strict=True)
    )
    first = [bronze_member, learners[0].pk, silver_member, learners[1].pk]
    second = [learners[2].pk, learners[3].pk]
    errors: list[BaseException] = []

    def pay(user_ids: list[int], source: int) -> None:
        try:
            progress.award_xp(
                awards=[progress.Award(u, "lesson", source, 10, WEDNESDAY) for u in user_ids]
            )
        except BaseException as error:  # reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    with time_machine.travel(WEDNESDAY, tick=False):
        # when: both writes run while each cohort is held by a transaction of its own, let go
        # one after the other (a write that locked them in the order it met them would hold
        # Bronze and wait for Silver when the second is let go, the other write the opposite)
        held, released = {}, {}
        gates = []
        for cohort in (bronze, silver):
            held[cohort.pk], released[cohort.pk] = threading.Event(), threading.Event()
            gates.append(
                threading.Thread(target=hold, args=(cohort, held[cohort.pk], released[cohort.pk]))
            )
            gates[-1].start()
            assert held[cohort.pk].wait(timeout=10)
        writes = [
            threading.Thread(target=pay, args=(ids, n)) for n, ids in enumerate((first, second))
        ]
        for write in writes:
            write.start()
        for cohort, gate in zip((bronze, silver), gates, strict=True):
            wait_until(lambda: writers_blocked() >= 2, timeout=10)
            released[cohort.pk].set()
            gate.join(timeout=10)
        for write in writes:
            write.join(timeout=30)

    # then: no deadlock; each learner counted once into the cohort of their tier
    assert errors == []
    members = dict(Membership.objects.values_list("user_id", "cohort_id"))
    assert [members[u.pk] for u in learners] == [bronze.pk, silver.pk, silver.pk, bronze.pk]
    assert Membership.objects.get(user_id=bronze_member).xp == 20
    sizes = dict(Cohort.objects.values_list("pk", "size"))
    assert (sizes[bronze.pk], sizes[silver.pk]) == (3, 3)
