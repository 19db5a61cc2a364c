"""award_xp_once_for_inserted: XP paid for the rows a caller's INSERT ... RETURNING inserts,
in the same statement on PostgreSQL."""

from datetime import UTC, date, datetime

import pytest
import time_machine
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext

from accounts.tests.factories import UserFactory
from progress import services
from progress.models import ActivityDay, LearnerDayXP, LearnerStats, XPAward

pytestmark = pytest.mark.django_db
NOW = datetime(2024, 1, 10, 12, tzinfo=UTC)

# A caller's own table (progress must not know any app's): what each (learner, source) earned.
INSERT = (
    "INSERT INTO earned (user_id, source_id, amount) "
    "SELECT v.user_id, v.source_id, v.amount FROM ({rows}) AS v WHERE v.amount >= 0 "
    "ON CONFLICT (user_id, source_id) DO NOTHING RETURNING user_id, source_id, amount"
)


@pytest.fixture(autouse=True)
def earned():
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMPORARY TABLE earned (user_id bigint, source_id bigint, amount integer, "
            "UNIQUE (user_id, source_id))"
        )
    yield
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE earned")


def insert_and_pay(rows: list[tuple[int, int, int]]) -> dict[int, services.InsertedAndPaid]:
    sql = INSERT.format(
        rows=" UNION ALL ".join(["SELECT %s AS user_id, %s AS source_id, %s AS amount"] * len(rows))
    )
    with time_machine.travel(NOW, tick=False):
        return services.award_xp_once_for_inserted(
            source_type="achievement",
            inserted_sql=sql,
            params=[value for row in rows for value in row],
        )


def test_the_rows_inserted_are_paid_once_with_the_stats_row(user):
    insert_and_pay([(user.id, 1, 10)])  # inserted (and paid) before

    result = insert_and_pay([(user.id, 1, 10), (user.id, 2, 20), (user.id, 3, 5)])

    assert result == {
        user.id: services.InsertedAndPaid(
            inserted=(2, 3),
            paid=(2, 3),
            standing=services.StandingAfterAward(xp_total=35, streak_current=1, exercises_passed=0),
        )
    }
    ledger = XPAward.objects.filter(user=user, source_type="achievement")
    assert sorted(ledger.values_list("source_id", "amount")) == [(1, 10), (2, 20), (3, 5)]
    stats = LearnerStats.objects.get(pk=user.pk)
    assert (stats.xp_total, stats.streak_best, stats.last_active_day) == (35, 1, date(2024, 1, 10))
    assert list(ActivityDay.objects.filter(user=user).values_list("day", flat=True)) == [
        date(2024, 1, 10)
    ]
    rollup = LearnerDayXP.objects.filter(user=user).aggregate(total=Sum("xp"))["total"]
    assert rollup == 35
    assert insert_and_pay([(user.id, 2, 20)]) == {}  # nothing inserted: nothing paid
    assert LearnerStats.objects.get(pk=user.pk).xp_total == 35


def test_a_row_of_zero_is_inserted_and_returned_but_pays_nothing(user):
    result = insert_and_pay([(user.id, 1, 0)])

    assert result == {user.id: services.InsertedAndPaid(inserted=(1,), paid=(), standing=None)}
    assert not XPAward.objects.filter(user=user).exists()
    assert not LearnerStats.objects.filter(pk=user.pk, xp_total__gt=0).exists()


def test_a_source_the_ledger_paid_already_is_inserted_but_not_paid_again(user):
    with time_machine.travel(NOW, tick=False):
        services.award_xp_once(user_id=user.id, source_type="achievement", source_id=1, amount=10)

    result = insert_and_pay([(user.id, 1, 10), (user.id, 2, 0)])

    assert result == {user.id: services.InsertedAndPaid(inserted=(1, 2), paid=(), standing=None)}
    assert XPAward.objects.filter(user=user).count() == 1
    assert LearnerStats.objects.get(pk=user.pk).xp_total == 10


def test_several_learners_each_get_their_own_standing(user):
    other = UserFactory()

    result = insert_and_pay([(user.id, 1, 10), (other.id, 1, 0), (other.id, 2, 7)])

    assert result[user.id].standing.xp_total == 10
    assert (result[other.id].inserted, result[other.id].paid) == ((1, 2), (2,))
    assert result[other.id].standing.xp_total == 7
    assert LearnerStats.objects.get(pk=other.pk).xp_total == 7


@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement: PostgreSQL")
def test_the_insert_and_the_award_are_one_statement(user):
    with CaptureQueriesContext(connection) as captured:
        insert_and_pay([(user.id, 1, 10), (user.id, 2, 0)])

    assert [q["sql"].split()[0] for q in captured] == ["WITH"]
