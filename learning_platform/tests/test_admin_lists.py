"""Admin change lists over the tables that grow with the learners, through their pages: a
fixed number of queries however many rows, and no exact COUNT(*) over the whole table."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.tests.factories import UserFactory
from exercises.tests.factories import ExerciseFactory, SubmissionFactory
from learning_platform import admin_lists
from progress import services

pytestmark = pytest.mark.django_db

LISTS = {
    "learners": "/admin/accounts/user/",
    "xp awards": "/admin/progress/xpaward/",
    "submissions": "/admin/exercises/submission/",
    "completions": "/admin/progress/lessoncompletion/",
    "learner stats": "/admin/progress/learnerstats/",
    "unlocks": "/admin/achievements/achievementunlock/",
}


@pytest.fixture
def superuser_client() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def add_learners_with_activity(count: int) -> None:
    exercise = ExerciseFactory()
    for learner in UserFactory.create_batch(count):
        for source_id in (1, 2):
            services.award_xp(
                awards=[
                    services.Award(
                        user_id=learner.id, source_type="exercise", source_id=source_id, amount=5
                    )
                ]
            )
        SubmissionFactory(user=learner, exercise=exercise)


def queries_of(client: Client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return [q["sql"] for q in captured.captured_queries]


@pytest.mark.parametrize("name", LISTS)
def test_an_admin_list_runs_as_many_queries_for_many_rows_as_for_few(superuser_client, name):
    add_learners_with_activity(2)
    queries_of(superuser_client, LISTS[name])  # the session and the user are cached after it
    few = queries_of(superuser_client, LISTS[name])
    add_learners_with_activity(15)

    many = queries_of(superuser_client, LISTS[name])

    assert len(many) == len(few)


@pytest.mark.parametrize("name", LISTS)
def test_an_admin_list_never_counts_the_whole_table(superuser_client, name):
    add_learners_with_activity(3)

    counts = [sql for sql in queries_of(superuser_client, LISTS[name]) if "COUNT(" in sql]

    assert counts, "the paginator counts (up to the cap)"
    assert all("LIMIT" in sql for sql in counts), counts


def test_a_filtered_list_counts_no_further_than_the_cap(superuser_client, monkeypatch):
    monkeypatch.setattr(admin_lists, "COUNT_CAP", 3)
    add_learners_with_activity(4)  # 8 exercise awards

    response = superuser_client.get(LISTS["xp awards"], {"source_type__exact": "exercise"})

    assert response.status_code == 200
    assert response.context["cl"].result_count == 4  # the cap, plus one: "more than 3"


def test_an_unfiltered_list_above_the_cap_shows_the_planners_estimate(
    superuser_client, monkeypatch
):
    monkeypatch.setattr(admin_lists, "COUNT_CAP", 3)
    add_learners_with_activity(4)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE progress_xpaward")

    response = superuser_client.get(LISTS["xp awards"])

    expected = 8 if connection.vendor == "postgresql" else 4  # SQLite has no estimate: capped
    assert response.context["cl"].result_count == expected


def test_the_xp_award_list_filters_by_date_without_a_date_hierarchy(superuser_client):
    add_learners_with_activity(1)

    response = superuser_client.get(
        LISTS["xp awards"], {"awarded_at__gte": "2000-01-01T00:00:00+00:00"}
    )

    assert response.status_code == 200
    assert response.context["cl"].date_hierarchy is None
    assert len(response.context["cl"].result_list) == 2


def test_searching_the_ledger_finds_a_learners_awards_and_a_sources(superuser_client):
    from accounts.tests.factories import UserFactory as Learner
    from progress.models import XPAward

    ada = Learner(email="ada.lovelace@example.com")
    services.award_xp(
        awards=[services.Award(user_id=ada.id, source_type="exercise", source_id=71, amount=5)]
    )
    other = Learner()
    services.award_xp(
        awards=[
            services.Award(user_id=other.id, source_type="exercise", source_id=987654, amount=5)
        ]
    )

    by_learner = superuser_client.get(LISTS["xp awards"], {"q": "lovelace"})
    # A number no factory name or e-mail holds: the search also matches learners.
    by_source = superuser_client.get(LISTS["xp awards"], {"q": "987654"})

    assert list(by_learner.context["cl"].result_list) == list(XPAward.objects.filter(user=ada))
    assert [a.user_id for a in by_source.context["cl"].result_list] == [other.id]


@pytest.mark.parametrize(
    ("name", "term"),
    [
        ("completions", "lesson-that-is-searched"),
        ("submissions", "Searched exercise"),
        ("unlocks", "searched-achievement"),
    ],
)
def test_searching_a_list_by_what_its_rows_belong_to(superuser_client, name, term):
    from achievements.models import AchievementUnlock
    from achievements.tests.factories import AchievementFactory
    from lessons.tests.factories import LessonFactory
    from progress.tests.factories import LessonCompletionFactory

    learner = UserFactory()
    LessonCompletionFactory(user=learner, lesson=LessonFactory(slug="lesson-that-is-searched"))
    SubmissionFactory(user=learner, exercise=ExerciseFactory(title="Searched exercise"))
    AchievementUnlock.objects.create(
        user=learner, achievement=AchievementFactory(slug="searched-achievement")
    )
    add_learners_with_activity(2)

    response = superuser_client.get(LISTS[name], {"q": term})

    assert [row.user_id for row in response.context["cl"].result_list] == [learner.id]


def test_a_search_by_learner_reads_the_ledger_through_its_indexes(superuser_client):
    from learning_platform.db import sequentially_scanned_tables

    add_learners_with_activity(3)
    sql_list = queries_of(superuser_client, LISTS["xp awards"] + "?q=example")
    if connection.vendor != "postgresql":
        pytest.skip("EXPLAIN plans are PostgreSQL's; SQLite's planner is not the one deployed")

    ledger_queries = [sql for sql in sql_list if "progress_xpaward" in sql]
    assert ledger_queries
    for sql in ledger_queries:
        assert "progress_xpaward" not in sequentially_scanned_tables(sql), sql
