"""The hot reads anyone can call stay bounded as learners grow: every query they run finds an
index on the tables that grow with the learners (PostgreSQL's EXPLAIN, sequential scans off,
so a Seq Scan left in a plan means no index fits)."""

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.tests.factories import UserFactory
from community.tests.factories import CommentFactory
from learning_platform.db import TABLES_THAT_GROW_WITH_LEARNERS, sequentially_scanned_tables
from lessons.tests.factories import LessonFactory, QuestFactory
from progress import boards, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def learners(db):
    quest = QuestFactory(slug=settings.DEMO_QUEST_SLUG)
    lessons = LessonFactory.create_batch(3, quest=quest, xp=20)
    people = UserFactory.create_batch(4)
    people[1].show_on_leaderboard = False
    people[1].save()
    for person in people:
        for lesson in lessons[:2]:
            services.complete_lesson(user=person, lesson_slug=lesson.slug)
        CommentFactory(author=person, lesson=lessons[0])
    return people, lessons


def statements(client: APIClient, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return [q["sql"] for q in captured.captured_queries]


def scans_of_growing_tables(sql_list: list[str]) -> list[tuple[str, str]]:
    if connection.vendor != "postgresql":
        pytest.skip("EXPLAIN plans are PostgreSQL's; SQLite's planner is not the one deployed")
    return [
        (table, sql)
        for sql in sql_list
        if sql.lstrip().upper().startswith("SELECT")
        for table in sequentially_scanned_tables(sql)
        if table in TABLES_THAT_GROW_WITH_LEARNERS
    ]


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed out", "signed in"])
@pytest.mark.parametrize(
    "path",
    ["/api/v1/achievements/", "/api/v1/lessons/{lesson}/", "/api/v1/lessons/{lesson}/comments/"],
)
def test_public_reads_use_indexes_on_the_tables_that_grow(learners, path, signed_in):
    people, lessons = learners
    client = client_for(people[0] if signed_in else None)

    sql_list = statements(client, path.format(lesson=lessons[0].slug))

    assert scans_of_growing_tables(sql_list) == []


@pytest.mark.parametrize("path", ["/api/v1/me/progress", "/api/v1/me/calendar"])
def test_my_progress_uses_indexes_on_the_tables_that_grow(learners, path):
    people, _ = learners

    sql_list = statements(client_for(people[0]), path)

    assert scans_of_growing_tables(sql_list) == []


@pytest.mark.parametrize("period", ["week", "month", "all"])
@pytest.mark.parametrize("viewer", [None, 0, 1], ids=["signed out", "on the board", "opted out"])
def test_leaderboards_from_redis_use_indexes_on_the_tables_that_grow(
    settings, learners, period, viewer
):
    if not settings.REDIS_URL:
        pytest.skip("needs REDIS_URL: the leaderboards under test live in Redis")
    settings.LEADERBOARD_REDIS = True
    settings.LEADERBOARD_REDIS_URL = settings.REDIS_URL
    boards.forget_failures()
    people, _ = learners
    call_command("rebuild_leaderboards", verbosity=0)
    client = client_for(people[viewer] if viewer is not None else None)

    sql_list = statements(client, f"/api/v1/leaderboard?period={period}")

    assert len(sql_list) <= 2  # the names of the top (and an opted-out viewer's own XP)
    assert scans_of_growing_tables(sql_list) == []


@pytest.mark.parametrize("period", ["week", "month", "all"])
@pytest.mark.parametrize("viewer", [None, 0, 1], ids=["signed out", "on the board", "opted out"])
def test_leaderboards_from_sql_use_indexes_on_the_tables_that_grow(
    settings, learners, period, viewer
):
    settings.LEADERBOARD_REDIS = False
    people, _ = learners
    client = client_for(people[viewer] if viewer is not None else None)

    sql_list = statements(client, f"/api/v1/leaderboard?period={period}")

    assert len(sql_list) <= 3  # the top, the viewer's XP and the count of those ahead
    assert scans_of_growing_tables(sql_list) == []


def test_the_check_sees_a_query_that_no_index_serves(learners):
    unindexed = "SELECT id FROM accounts_user WHERE display_name = 'Ada'"

    assert scans_of_growing_tables([unindexed]) == [("accounts_user", unindexed)]
