"""The leagues' part of the learner's copy of their data (`GET /me/data`): their own rows only."""

from datetime import UTC, datetime

import time_machine

from accounts.tests.factories import UserFactory
from leagues import services
from leagues.tests.factories import CohortFactory, MembershipFactory


def test_the_download_holds_the_learners_league_and_weeks_and_nobody_elses(db, client_for, earn):
    # Two in Silver: both move up (the top 7 do).
    cohort = CohortFactory(tier=1)
    other = MembershipFactory(cohort=cohort, xp=90, user=UserFactory(display_name="Ada Other"))
    mine = MembershipFactory(cohort=cohort, xp=40)
    with time_machine.travel(datetime(2026, 3, 16, 1, tzinfo=UTC), tick=False):
        services.close_ended_cohorts()
    earn(mine.user, 15, datetime(2026, 3, 18, 10, tzinfo=UTC))

    response = client_for(mine.user).get("/api/v1/me/data")

    assert response.status_code == 200
    assert response.json()["league"] == {
        "tier": "Gold",
        "opted_out": False,
        "last_week": "2026-03-16",
        "weeks": [
            {
                "week": "2026-03-09",
                "tier": "Silver",
                "xp": 40,
                "rank": 2,
                "tier_after": "Gold",
                "result_seen_at": None,
            },
            {
                "week": "2026-03-16",
                "tier": "Gold",
                "xp": 15,
                "rank": None,
                "tier_after": None,
                "result_seen_at": None,
            },
        ],
    }
    text = response.content.decode()
    assert other.user.display_name not in text
    assert other.user.email not in text


def test_a_learner_never_placed_has_an_empty_league(db, client_for):
    data = client_for(UserFactory()).get("/api/v1/me/data").json()

    assert data["league"] == {"tier": "Bronze", "opted_out": False, "last_week": None, "weeks": []}
