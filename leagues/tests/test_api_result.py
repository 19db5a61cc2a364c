"""The last closed week's result in `GET /me/league` until the learner saw it, and
`POST /me/league/result/seen`, through the API."""

from datetime import UTC, datetime

import pytest
import time_machine

from leagues import services
from leagues.tests.factories import CohortFactory, MembershipFactory

NEXT_WEDNESDAY = datetime(2026, 3, 18, 10, tzinfo=UTC)
SEEN = "/api/v1/me/league/result/seen"


@pytest.fixture
def closed_silver(db):
    """A Silver cohort of 13 of the week of 9 March, closed; its members best first."""
    cohort = CohortFactory(tier=1)
    members = [MembershipFactory(cohort=cohort, xp=100 - n).user for n in range(13)]
    with time_machine.travel(datetime(2026, 3, 16, 1, tzinfo=UTC), tick=False):
        services.close_ended_cohorts()
    with time_machine.travel(NEXT_WEDNESDAY, tick=False):
        yield members


def test_the_league_carries_the_last_closed_week_until_it_is_seen(
    closed_silver, client_for, django_assert_num_queries
):
    me = client_for(closed_silver[2])

    # As before the result: the learner's row, then this week's and the last closed
    # membership in one query.
    with django_assert_num_queries(2):
        body = me.get("/api/v1/me/league").json()

    assert body["result"] == {
        "week": "2026-03-09",
        "week_last_day": "2026-03-15",
        "tier_before": {"rank": 2, "name": "Silver"},
        "tier_after": {"rank": 3, "name": "Gold"},
        "rank": 3,
        "members": 13,
        "move": "up",
    }
    # This week they are not placed yet, at the tier the close gave them.
    assert (body["placed"], body["tier"]["name"]) == (False, "Gold")

    with django_assert_num_queries(1):
        response = me.post(SEEN, {"week": "2026-03-09"}, format="json")

    assert response.status_code == 204
    assert me.get("/api/v1/me/league").json()["result"] is None


def test_seen_is_idempotent_and_keeps_the_first_time(closed_silver, client_for):
    me = client_for(closed_silver[12])
    assert me.get("/api/v1/me/league").json()["result"]["move"] == "down"

    assert me.post(SEEN, {"week": "2026-03-09"}, format="json").status_code == 204
    with time_machine.travel(datetime(2026, 3, 19, tzinfo=UTC), tick=False):
        assert me.post(SEEN, {"week": "2026-03-09"}, format="json").status_code == 204

    seen = services.Membership.objects.get(user=closed_silver[12]).result_seen_at
    assert seen == NEXT_WEDNESDAY


def test_one_learner_seeing_their_result_leaves_the_others(closed_silver, client_for):
    client_for(closed_silver[0]).post(SEEN, {"week": "2026-03-09"}, format="json")

    result = client_for(closed_silver[7]).get("/api/v1/me/league").json()["result"]

    assert (result["move"], result["rank"]) == ("stayed", 8)


def test_a_placed_learner_sees_this_weeks_cohort_and_last_weeks_result(
    closed_silver, client_for, earn, django_assert_num_queries
):
    earn(closed_silver[0], 20, NEXT_WEDNESDAY)

    with django_assert_num_queries(3):
        body = client_for(closed_silver[0]).get("/api/v1/me/league").json()

    assert (body["placed"], body["tier"]["name"]) == (True, "Gold")
    assert body["result"]["tier_after"] == {"rank": 3, "name": "Gold"}


def test_a_week_with_no_closed_result_is_404_with_its_type(closed_silver, client_for, earn):
    earn(closed_silver[0], 20, NEXT_WEDNESDAY)
    me = client_for(closed_silver[0])

    for week in ("2026-03-02", "2026-03-16"):  # never placed; placed, not closed
        response = me.post(SEEN, {"week": week}, format="json")

        assert response.status_code == 404
        assert response.json()["type"] == "league_result_not_found"


@pytest.mark.parametrize("body", [{}, {"week": "next week"}, {"week": 20260309}])
def test_seen_takes_a_date(closed_silver, client_for, body):
    response = client_for(closed_silver[0]).post(SEEN, body, format="json")

    assert response.status_code == 400
    answer = response.json()
    assert answer["type"] == "validation_error"
    assert "week" in answer["errors"]


def test_seen_of_a_day_that_is_no_monday_is_not_found(closed_silver, client_for):
    response = client_for(closed_silver[0]).post(SEEN, {"week": "2026-03-10"}, format="json")

    assert response.status_code == 404
    assert response.json()["type"] == "league_result_not_found"


def test_seen_needs_a_signed_in_learner(api_client, db):
    response = api_client.post(SEEN, {"week": "2026-03-09"}, format="json")

    assert response.status_code in (401, 403)
    assert response.json()["status"] == response.status_code
