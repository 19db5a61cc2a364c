"""The leaderboards from Redis sorted sets (progress/boards.py), their rebuild from the ledger,
and their SQL fallback. The SQL answers are the reference: Redis must give the same."""

from collections import defaultdict
from datetime import UTC, date, datetime, timedelta

import pytest
import redis
import time_machine
from django.core.management import call_command
from django.db.models import Sum
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.tests.factories import UserFactory
from progress import boards, services
from progress.models import LearnerDayXP, LearnerPeriodXP, MissedBoardUpdate, XPAward
from progress.periods import PERIODS, period_of
from progress.tasks import refresh_leaderboards

pytestmark = pytest.mark.django_db

LEADERBOARD = "/api/v1/leaderboard"
DEAD_REDIS = "redis://127.0.0.1:18549/0"  # nothing listens there
# A Wednesday noon ahead of the real date: the calendar tests' weeks and months are known, and
# the keys' expiry (Redis's own clock) stays in the future.
WEDNESDAY = datetime(2027, 3, 24, 12, 0, tzinfo=UTC)


@pytest.fixture
def redis_boards(settings):
    if not settings.REDIS_URL:
        pytest.skip("needs REDIS_URL: the boards under test live in Redis")
    settings.LEADERBOARD_REDIS = True
    settings.LEADERBOARD_REDIS_URL = settings.REDIS_URL
    boards.forget_failures()
    yield redis.Redis.from_url(settings.REDIS_URL)
    boards.forget_failures()
    boards._missed_here = False  # a test's dead Redis queues no rebuild in the next one's


@pytest.fixture
def give(django_capture_on_commit_callbacks):
    """Award XP through the service and run what waits for the commit (the Redis update)."""

    def give(user, amount: int, *, days_ago: float = 0) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            services.award_xp(
                awards=[
                    services.Award(
                        user_id=user.id,
                        source_type="exercise",
                        source_id=XPAward.objects.count() + 1,
                        amount=amount,
                        awarded_at=timezone.now() - timedelta(days=days_ago),
                    )
                ]
            )

    return give


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def board(client: APIClient, period: str) -> dict:
    response = client.get(LEADERBOARD, {"period": period})
    assert response.status_code == 200
    return response.json()


def both_ways(settings, client: APIClient, period: str) -> tuple[dict, dict]:
    """The same request answered from Redis and from SQL."""
    from_redis = board(client, period)
    settings.LEADERBOARD_REDIS = False
    from_sql = board(client, period)
    settings.LEADERBOARD_REDIS = True
    return from_redis, from_sql


@pytest.fixture
def crowd(give):
    """Learners with ties, an opted-out one, a deactivated one and XP of several ages."""
    people = [UserFactory(display_name=f"L{i}") for i in range(8)]
    for i, person in enumerate(people):
        give(person, 100 * (i % 3))  # ties: 0, 100, 200 each more than once
        give(person, 10 * i, days_ago=12)  # in the month, not the week
        give(person, 1000 + i, days_ago=45)  # all time only
    shy = UserFactory(display_name="Shy", show_on_leaderboard=False)
    give(shy, 150)
    gone = UserFactory(display_name="Gone")
    give(gone, 5000)
    gone.is_active = False
    gone.save(update_fields=["is_active"])
    return [*people, shy]


@pytest.mark.parametrize("period", ["week", "month", "all"])
def test_redis_boards_answer_exactly_what_sql_answers(settings, redis_boards, crowd, period):
    call_command("rebuild_leaderboards", verbosity=0)
    viewers = [None, crowd[0], crowd[4], crowd[-1]]  # anonymous, low, high, opted out

    for viewer in viewers:
        from_redis, from_sql = both_ways(settings, client_for(viewer), period)
        assert from_redis == from_sql
    assert "Gone" not in [e["display_name"] for e in from_redis["entries"]]
    assert "Shy" not in [e["display_name"] for e in from_redis["entries"]]


@time_machine.travel(WEDNESDAY, tick=False)
def test_awards_after_a_rebuild_reach_every_board(settings, redis_boards, give):
    alice, bob = UserFactory(display_name="Alice"), UserFactory(display_name="Bob")
    call_command("rebuild_leaderboards", verbosity=0)
    give(alice, 30)
    give(bob, 20)
    give(bob, 20, days_ago=10)  # Sunday 14 March: this month, last week

    week = board(client_for(bob), "week")
    month, all_time = board(client_for(), "month"), board(client_for(), "all")

    assert [(e["display_name"], e["xp"]) for e in week["entries"]] == [("Alice", 30), ("Bob", 20)]
    assert week["me"] == {"rank": 2, "xp": 20, "on_leaderboard": True}
    assert [(e["display_name"], e["xp"]) for e in month["entries"]] == [("Bob", 40), ("Alice", 30)]
    assert all_time["entries"] == month["entries"]
    assert both_ways(settings, client_for(bob), "week")[1] == week


def test_equal_xp_shares_a_rank_and_lists_by_joining_order(redis_boards, give):
    first, second, third = (UserFactory(display_name=n) for n in ("First", "Second", "Third"))
    call_command("rebuild_leaderboards", verbosity=0)
    for person in (third, second, first):
        give(person, 50)

    entries = board(client_for(), "week")["entries"]

    assert [(e["rank"], e["display_name"]) for e in entries] == [
        (1, "First"),
        (1, "Second"),
        (1, "Third"),
    ]


def _give_at(give, learner, amount: int, at: datetime) -> None:
    give(learner, amount, days_ago=(timezone.now() - at).total_seconds() / 86400)


@time_machine.travel(WEDNESDAY, tick=False)
def test_the_week_is_the_calendar_week_from_monday(redis_boards, give):
    learner = UserFactory(display_name="Dana")
    call_command("rebuild_leaderboards", verbosity=0)
    _give_at(give, learner, 1, datetime(2027, 3, 22, 0, 1, tzinfo=UTC))  # Monday
    _give_at(give, learner, 1000, datetime(2027, 3, 21, 23, 59, tzinfo=UTC))  # Sunday before

    body = board(client_for(), "week")

    assert [e["xp"] for e in body["entries"]] == [1]
    assert (body["since"], body["ends_at"]) == ("2027-03-22T00:00:00Z", "2027-03-29T00:00:00Z")


@time_machine.travel(WEDNESDAY, tick=False)
def test_the_month_is_the_calendar_month_in_redis_as_in_sql(settings, redis_boards, give):
    learner = UserFactory(display_name="Mo")
    call_command("rebuild_leaderboards", verbosity=0)
    _give_at(give, learner, 5, datetime(2027, 3, 1, 0, 1, tzinfo=UTC))
    _give_at(give, learner, 500, datetime(2027, 2, 28, 23, 59, tzinfo=UTC))

    from_redis, from_sql = both_ways(settings, client_for(learner), "month")

    assert [e["xp"] for e in from_redis["entries"]] == [5]
    assert from_redis == from_sql
    assert (from_redis["first_day"], from_redis["last_day"]) == ("2027-03-01", "2027-03-31")


@time_machine.travel(WEDNESDAY, tick=False)
def test_xp_counts_on_the_learners_day_in_redis_as_in_sql(settings, redis_boards, give):
    # Sunday 21 March 11:00 UTC is Monday 01:00 on Kiritimati (UTC+14): this week's there;
    # the same instant is last week's for a learner in UTC.
    kiri = UserFactory(display_name="Kiri", time_zone="Pacific/Kiritimati")
    utc = UserFactory(display_name="Uma", time_zone="UTC")
    call_command("rebuild_leaderboards", verbosity=0)
    sunday_11 = datetime(2027, 3, 21, 11, 0, tzinfo=UTC)
    _give_at(give, kiri, 30, sunday_11)
    _give_at(give, utc, 40, sunday_11)

    from_redis, from_sql = both_ways(settings, client_for(), "week")

    assert [(e["display_name"], e["xp"]) for e in from_redis["entries"]] == [("Kiri", 30)]
    assert from_redis == from_sql


@time_machine.travel(WEDNESDAY, tick=False)
def test_a_rebuild_puts_each_award_on_its_learners_day(redis_boards, give):
    kiri = UserFactory(display_name="Kiri", time_zone="Pacific/Kiritimati")
    _give_at(give, kiri, 30, datetime(2027, 3, 21, 11, 0, tzinfo=UTC))
    redis_boards.delete(*redis_boards.scan_iter(match=boards._key("*")))

    call_command("rebuild_leaderboards", verbosity=0)

    assert [e["xp"] for e in board(client_for(), "week")["entries"]] == [30]


def test_opting_out_hides_the_learner_and_opting_in_shows_them_again(
    redis_boards, give, django_capture_on_commit_callbacks
):
    learner = UserFactory(display_name="Erin")
    give(learner, 70)
    give(UserFactory(display_name="Finn"), 10)
    call_command("rebuild_leaderboards", verbosity=0)
    client = client_for(learner)

    with django_capture_on_commit_callbacks(execute=True):
        assert client.patch("/api/v1/me/", {"show_on_leaderboard": False}).status_code == 200
    hidden = board(client, "week")
    with django_capture_on_commit_callbacks(execute=True):
        client.patch("/api/v1/me/", {"show_on_leaderboard": True})
    shown = board(client, "week")

    assert [e["display_name"] for e in hidden["entries"]] == ["Finn"]
    assert hidden["me"] == {"rank": 1, "xp": 70, "on_leaderboard": False}
    assert [e["display_name"] for e in shown["entries"]] == ["Erin", "Finn"]
    assert shown["me"] == {"rank": 1, "xp": 70, "on_leaderboard": True}


def test_an_opted_out_learner_earns_xp_off_the_board(redis_boards, give):
    shy = UserFactory(display_name="Shy", show_on_leaderboard=False)
    call_command("rebuild_leaderboards", verbosity=0)
    give(shy, 500)
    give(UserFactory(), 100)

    body = board(client_for(shy), "month")

    assert len(body["entries"]) == 1
    assert body["me"] == {"rank": 1, "xp": 500, "on_leaderboard": False}


def test_a_deactivated_learner_leaves_every_board(
    redis_boards, give, django_capture_on_commit_callbacks
):
    learner = UserFactory(display_name="Gale")
    give(learner, 80)
    call_command("rebuild_leaderboards", verbosity=0)

    with django_capture_on_commit_callbacks(execute=True):
        learner.is_active = False
        learner.save()

    for period in ("week", "month", "all"):
        assert board(client_for(), period)["entries"] == []
    assert redis_boards.sismember(boards._key("hidden"), boards.member(learner.pk))


def test_a_lost_redis_answers_from_sql_and_is_rebuilt_from_the_ledger(redis_boards, give):
    learner = UserFactory(display_name="Hal")
    give(learner, 40)
    call_command("rebuild_leaderboards", verbosity=0)
    keys = list(redis_boards.scan_iter(match=boards._key("*")))
    redis_boards.delete(*keys)  # as a restarted Redis without persistence

    first = board(client_for(learner), "week")  # from SQL; queues the rebuild (run eagerly)

    assert [(e["display_name"], e["xp"]) for e in first["entries"]] == [("Hal", 40)]
    assert boards.is_built()
    assert boards.read(period="week", count=10, viewer_id=learner.pk).viewer_xp == 40


def test_a_dead_redis_answers_from_sql_without_error(settings, redis_boards, give):
    learner = UserFactory(display_name="Ivy")
    settings.LEADERBOARD_REDIS_URL = DEAD_REDIS
    give(learner, 25)  # the award's Redis update fails quietly after the commit

    for period in ("week", "month", "all"):
        body = board(client_for(learner), period)
        assert body["me"] == {"rank": 1, "xp": 25, "on_leaderboard": True}
    assert XPAward.objects.get(user=learner).amount == 25


def test_a_signed_in_read_from_redis_runs_one_query(redis_boards, give, django_assert_num_queries):
    people = UserFactory.create_batch(55)
    for i, person in enumerate(people):
        give(person, 1000 - i)
    call_command("rebuild_leaderboards", verbosity=0)
    viewer = people[-1]
    client = client_for(viewer)

    with django_assert_num_queries(1):  # the names of the top learners
        body = board(client, "month")

    assert len(body["entries"]) == 50
    assert body["me"] == {"rank": 55, "xp": 1000 - 54, "on_leaderboard": True}


@time_machine.travel(datetime(2027, 3, 28, 12, 0, tzinfo=UTC), tick=False)  # a Sunday
def test_the_periodic_refresh_rebuilds_lost_boards_and_builds_this_weeks(redis_boards, give):
    give(UserFactory(), 10)
    redis_boards.delete(*redis_boards.scan_iter(match=boards._key("*")))

    refresh_leaderboards.delay()

    today = boards.utc_today()
    assert boards.is_built()
    assert boards.period_key("week", today).endswith(":week:2027-03-22")
    assert redis_boards.exists(boards.period_key("week", today))
    assert redis_boards.exists(boards.period_key("month", today))


@time_machine.travel(datetime(2027, 3, 28, 23, 59, tzinfo=UTC), tick=False)  # Sunday night
def test_the_first_award_of_a_new_week_is_on_its_board_at_once(redis_boards, give):
    # Kiritimati's Monday has begun: its learners' XP starts the new week's board, which no
    # award has built yet (an empty union makes no key).
    kiri = UserFactory(display_name="Kiri", time_zone="Pacific/Kiritimati")
    call_command("rebuild_leaderboards", verbosity=0)
    give(kiri, 25)

    body = board(client_for(kiri), "week")

    assert body["first_day"] == "2027-03-29"
    assert [e["xp"] for e in body["entries"]] == [25]
    assert body["me"] == {"rank": 1, "xp": 25, "on_leaderboard": True}


def test_the_command_recomputes_the_rollup_from_the_ledger(settings, give):
    settings.LEADERBOARD_REDIS = False
    learner = UserFactory()
    give(learner, 10)
    give(learner, 5, days_ago=3)
    give(learner, 4, days_ago=35)
    expected = set(LearnerDayXP.objects.values_list("user_id", "day", "xp"))
    periods = set(LearnerPeriodXP.objects.values_list("user_id", "period", "starts", "xp"))
    LearnerDayXP.objects.update(xp=1)
    LearnerPeriodXP.objects.filter(period="week").delete()
    LearnerPeriodXP.objects.update(xp=1)

    call_command("rebuild_leaderboards", "--from-ledger", verbosity=0)

    assert set(LearnerDayXP.objects.values_list("user_id", "day", "xp")) == expected
    assert set(LearnerPeriodXP.objects.values_list("user_id", "period", "starts", "xp")) == periods


def test_the_ledger_trigger_sums_each_learners_xp_per_day_of_theirs(give):
    learner = UserFactory(time_zone="Pacific/Kiritimati")
    give(learner, 10)
    give(learner, 5)
    give(learner, 7, days_ago=2)
    services.award_xp(
        awards=[services.Award(user_id=learner.id, source_type="exercise", source_id=1, amount=99)]
    )

    per_day = XPAward.objects.values("user_id", "day").annotate(xp=Sum("amount"))
    assert set(LearnerDayXP.objects.values_list("user_id", "day", "xp")) == {
        (row["user_id"], row["day"], row["xp"]) for row in per_day
    }
    assert LearnerDayXP.objects.aggregate(total=Sum("xp"))["total"] == 22


def test_the_ledger_trigger_sums_each_learners_xp_per_calendar_week_and_month(give):
    # Kiritimati (UTC+14) pays on a day ahead of UTC's: the periods are of the learner's days.
    learner = UserFactory(time_zone="Pacific/Kiritimati")
    other = UserFactory(time_zone="America/Los_Angeles")
    for days_ago, amount in ((0, 10), (0, 5), (2, 7), (9, 4), (40, 3)):
        give(learner, amount, days_ago=days_ago)
    give(other, 6, days_ago=1)

    expected: dict[tuple[int, str, date], int] = defaultdict(int)
    for user_id, day, amount in XPAward.objects.values_list("user_id", "day", "amount"):
        for period in PERIODS:
            expected[(user_id, period, period_of(period, day)[0])] += amount
    assert {
        (user_id, period, starts): xp
        for user_id, period, starts, xp in LearnerPeriodXP.objects.values_list(
            "user_id", "period", "starts", "xp"
        )
    } == expected


def test_one_ledger_insert_of_many_awards_adds_each_to_its_learners_periods():
    learners = UserFactory.create_batch(3)
    services.award_xp(
        awards=[
            services.Award(user_id=learner.id, source_type="exercise", source_id=n, amount=n)
            for learner in learners
            for n in (1, 2, 3)
        ]
    )

    assert sorted(LearnerPeriodXP.objects.filter(period="week").values_list("user_id", "xp")) == [
        (learner.id, 6) for learner in learners
    ]


def test_a_ledger_row_without_a_day_counts_on_its_utc_day():
    learner = UserFactory(time_zone="Pacific/Kiritimati")
    at = datetime(2027, 3, 21, 11, 0, tzinfo=UTC)
    # As a bulk load or a hand-written INSERT may leave it.
    XPAward.objects.create(
        user=learner, source_type="exercise", source_id=1, amount=9, awarded_at=at, day=None
    )

    assert list(LearnerDayXP.objects.values_list("day", "xp")) == [(at.date(), 9)]


# --- awards Redis missed ----------------------------------------------------------------------


@pytest.fixture
def lost_boards(settings, redis_boards):
    """Boards built, then Redis unreachable for them; `back()` ends it (the pause over)."""
    call_command("rebuild_leaderboards", verbosity=0)
    real = settings.LEADERBOARD_REDIS_URL
    settings.LEADERBOARD_REDIS_URL = DEAD_REDIS

    def back() -> None:
        settings.LEADERBOARD_REDIS_URL = real
        boards.forget_failures()

    return back


def xp_on_board(period: str) -> dict[int, int]:
    return dict(boards.read(period=period, count=100, viewer_id=None).top)


def test_awards_redis_missed_are_noted_and_the_refresh_rebuilds_within_its_interval(
    settings, lost_boards, give
):
    learner = UserFactory(display_name="Jo")
    give(learner, 25)  # the award's Redis update fails after the commit
    assert MissedBoardUpdate.objects.count() == 1
    boards._missed_here = False  # as if the process that missed it were gone
    lost_boards()
    assert xp_on_board("week") == {}  # short: what the refresh job is for

    refresh_leaderboards.delay()

    for period in ("week", "month", "all"):
        assert xp_on_board(period) == {learner.id: 25}
    assert not MissedBoardUpdate.objects.exists()
    assert settings.CELERY_BEAT_SCHEDULE["progress.refresh_leaderboards"]["schedule"] <= (
        timedelta(seconds=30)
    )


def test_the_process_that_missed_awards_queues_a_rebuild_when_redis_answers_it(lost_boards, give):
    learner = UserFactory(display_name="Kit")
    give(learner, 30)
    lost_boards()

    board(client_for(), "week")  # Redis answers: the rebuild is queued (and run, eagerly)

    assert xp_on_board("week") == {learner.id: 30}
    assert not MissedBoardUpdate.objects.exists()


def test_a_note_made_while_a_rebuild_runs_waits_for_the_next_one(monkeypatch, redis_boards, give):
    give(UserFactory(), 10)
    MissedBoardUpdate.objects.create(learners=1)
    hidden_user_ids = boards._hidden_user_ids

    def meanwhile():  # called once the rebuild has read its notes, before the rollup
        MissedBoardUpdate.objects.create(learners=1)
        return hidden_user_ids()

    monkeypatch.setattr(boards, "_hidden_user_ids", meanwhile)
    boards.rebuild()
    monkeypatch.setattr(boards, "_hidden_user_ids", hidden_user_ids)

    assert MissedBoardUpdate.objects.count() == 1
    assert boards.refresh() == "rebuilt"
    assert boards.refresh() == "periods"
