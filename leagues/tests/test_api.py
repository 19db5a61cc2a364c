from datetime import UTC, datetime

import pytest
import time_machine

from accounts.tests.factories import UserFactory
from leagues.models import Membership
from leagues.tests.factories import CohortFactory, MembershipFactory

WEDNESDAY = datetime(2026, 3, 11, 10, tzinfo=UTC)


@pytest.fixture
def wednesday(db):
    with time_machine.travel(WEDNESDAY, tick=False):
        yield


def test_my_league_ranks_the_cohort_with_the_lines_and_the_week(
    wednesday, client_for, django_assert_num_queries
):
    cohort = CohortFactory(tier=1)
    members = [MembershipFactory(cohort=cohort, xp=100 - n) for n in range(14)]
    me = members[2].user

    # The learner's row, their memberships (this week's and the last closed), the cohort.
    with django_assert_num_queries(3):
        response = client_for(me).get("/api/v1/me/league")

    assert response.status_code == 200
    body = response.json()
    assert {k: body[k] for k in body if k != "members"} == {
        "participating": True,
        "placed": True,
        "waiting": False,
        "tier": {"rank": 2, "name": "Silver"},
        "cohort_size": 30,
        "week_first_day": "2026-03-09",
        "week_last_day": "2026-03-15",
        "ends_at": "2026-03-16T00:00:00Z",
        "promotion_line": 7,
        "demotion_line": 10,
        "result": None,
    }
    assert [m["rank"] for m in body["members"]] == list(range(1, 15))
    assert [m["xp"] for m in body["members"]] == [100 - n for n in range(14)]
    assert body["members"][2] == {
        "rank": 3,
        "display_name": me.display_name,
        "xp": 98,
        "you": True,
    }
    assert sum(m["you"] for m in body["members"]) == 1


def test_my_league_shows_others_by_public_name_never_by_e_mail(wednesday, client_for):
    cohort = CohortFactory()
    me = MembershipFactory(cohort=cohort).user
    other = MembershipFactory(cohort=cohort, user=UserFactory(display_name="")).user

    body = client_for(me).get("/api/v1/me/league").content.decode()

    assert other.public_handle in body
    assert other.email not in body
    assert me.email not in body


def test_my_league_before_any_xp_this_week_says_not_placed_with_the_tier(wednesday, client_for):
    learner = UserFactory(time_zone="America/New_York")

    body = client_for(learner).get("/api/v1/me/league").json()

    assert (body["placed"], body["waiting"], body["members"]) == (False, False, [])
    assert body["tier"] == {"rank": 1, "name": "Bronze"}
    assert (body["promotion_line"], body["demotion_line"]) == (None, None)
    assert body["ends_at"] == "2026-03-16T04:00:00Z"


def test_my_league_needs_a_signed_in_learner(api_client, db):
    response = api_client.get("/api/v1/me/league")

    assert response.status_code in (401, 403)
    assert response.json()["status"] == response.status_code


def test_leaving_the_leagues_through_the_api_takes_the_learner_off_the_list(wednesday, client_for):
    cohort = CohortFactory()
    me, other = (MembershipFactory(cohort=cohort).user for _ in range(2))

    response = client_for(me).put(
        "/api/v1/me/league/participation", {"participating": False}, format="json"
    )

    assert response.status_code == 200
    assert response.json() == {"participating": False}
    assert list(Membership.objects.values_list("user_id", flat=True)) == [other.id]
    mine = client_for(me).get("/api/v1/me/league").json()
    assert (mine["participating"], mine["placed"]) == (False, False)
    theirs = client_for(other).get("/api/v1/me/league").json()
    assert [m["display_name"] for m in theirs["members"]] == [other.display_name]


def test_participation_takes_only_a_boolean(user_client):
    response = user_client.put(
        "/api/v1/me/league/participation", {"participating": "maybe"}, format="json"
    )

    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "validation_error"
    assert "participating" in body["errors"]
