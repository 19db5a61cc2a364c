"""The lesson page and the quest outline through the HTTP API."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from lessons.tests.factories import (
    LessonFactory,
    LinkFactory,
    ProseBlockFactory,
    QuestFactory,
    TableBlockFactory,
    d_model_lesson,
)
from progress.services import complete_lesson

pytestmark = pytest.mark.django_db


@pytest.fixture
def quest():
    return QuestFactory(slug="transformers", title="How transformers work")


@pytest.fixture
def d_model(quest):
    return d_model_lesson(quest)


def test_lesson_read_returns_blocks_links_and_neighbours(api_client, quest, d_model):
    before = LessonFactory(quest=quest, slug="tokens", title="Tokens", position=1)
    after = LessonFactory(quest=quest, slug="heads", title="Heads", position=3)

    response = api_client.get("/api/v1/lessons/embedding-dimension/")

    assert response.status_code == 200
    body = response.json()
    assert body["title"] == "Embedding dimension (d_model)"
    assert body["estimated_minutes"] == 10
    assert sorted(body["tags"]) == ["capacity", "d-model", "scaling"]
    assert body["quest"] == {"slug": "transformers", "title": "How transformers work"}
    assert [b["kind"] for b in body["blocks"]] == ["prose", "table", "code"]
    prose, table, code = body["blocks"]
    assert "<strong>width</strong>" in prose["html"]
    assert "<script>" not in prose["html"]
    assert prose["markdown"].startswith("The **width**")
    assert table["rows"][1] == ["GPT-3", "12,288"]
    assert code["title"] == "Estimating parameter count"
    assert body["links"] == [{"title": "GPT-3", "url": "https://arxiv.org/abs/2005.14165"}]
    assert body["previous"] == {"slug": before.slug, "title": "Tokens"}
    assert body["next"] == {"slug": after.slug, "title": "Heads"}
    assert body["comment_count"] == 0
    assert body["exercise"] is None


def test_the_lesson_number_is_its_place_among_what_the_reader_sees(api_client, staff_client, quest):
    LessonFactory(quest=quest, slug="one", position=5)
    LessonFactory(quest=quest, slug="draft", position=6, published=False)
    LessonFactory(quest=quest, slug="two", position=6)  # the same typed number as the draft

    learner = api_client.get("/api/v1/lessons/two/").json()
    staff = staff_client.get("/api/v1/lessons/two/").json()

    assert (learner["position"], learner["number"]) == (6, 2)
    assert staff["number"] == 3  # staff see the draft before it


def test_previous_and_next_skip_drafts_and_end_with_null(api_client, quest):
    first = LessonFactory(quest=quest, position=1)
    LessonFactory(quest=quest, position=2, published=False)
    last = LessonFactory(quest=quest, position=3)

    first_body = api_client.get(f"/api/v1/lessons/{first.slug}/").json()
    last_body = api_client.get(f"/api/v1/lessons/{last.slug}/").json()

    assert first_body["previous"] is None
    assert first_body["next"]["slug"] == last.slug
    assert last_body["previous"]["slug"] == first.slug
    assert last_body["next"] is None


def test_draft_lesson_is_404_for_learners_and_anonymous(api_client, user_client):
    draft = LessonFactory(published=False)

    for client in (api_client, user_client):
        response = client.get(f"/api/v1/lessons/{draft.slug}/")
        assert response.status_code == 404
        assert response.json()["type"] == "not_found"


def test_staff_read_drafts_in_detail_and_list(staff_client):
    draft = LessonFactory(published=False)

    assert staff_client.get(f"/api/v1/lessons/{draft.slug}/").status_code == 200
    slugs = [item["slug"] for item in staff_client.get("/api/v1/lessons/").json()["results"]]
    assert draft.slug in slugs


def test_unknown_lesson_answers_404_in_the_error_format(api_client):
    response = api_client.get("/api/v1/lessons/no-such-lesson/")

    assert response.status_code == 404
    assert response.json() == {
        "type": "not_found",
        "title": "Not found.",
        "status": 404,
        "detail": "No such lesson.",
        "errors": {},
    }


def test_lesson_read_sends_an_etag_and_answers_304_when_it_matches(api_client, d_model):
    first = api_client.get("/api/v1/lessons/embedding-dimension/")
    etag = first["ETag"]

    second = api_client.get("/api/v1/lessons/embedding-dimension/", HTTP_IF_NONE_MATCH=etag)

    assert etag.startswith('"')
    assert second.status_code == 304
    assert second.content == b""
    assert second["ETag"] == etag


def test_a_content_change_changes_the_etag_on_the_next_read(api_client, d_model):
    etag = api_client.get("/api/v1/lessons/embedding-dimension/")["ETag"]
    block = d_model.blocks.get(kind="prose")
    block.markdown = "Edited in the admin."
    block.save()

    response = api_client.get("/api/v1/lessons/embedding-dimension/", HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 200
    assert response["ETag"] != etag
    assert response.json()["blocks"][0]["markdown"] == "Edited in the admin."


def test_lesson_read_runs_a_fixed_number_of_queries_whatever_its_blocks(
    api_client, quest, django_assert_num_queries
):
    small = LessonFactory(quest=quest)
    ProseBlockFactory(lesson=small)
    large = LessonFactory(quest=quest)
    for position in range(40):
        TableBlockFactory(lesson=large, position=position)
        LinkFactory(lesson=large, position=position)

    with CaptureQueriesContext(connection) as small_queries:
        assert api_client.get(f"/api/v1/lessons/{small.slug}/").status_code == 200
    with django_assert_num_queries(len(small_queries)):
        assert api_client.get(f"/api/v1/lessons/{large.slug}/").status_code == 200
    assert len(small_queries) <= 8


def test_quest_list_and_detail_outline(api_client, quest, d_model):
    LessonFactory(quest=quest, slug="draft", published=False, position=9)
    LessonFactory(quest=quest, slug="intro", position=1, xp=20, estimated_minutes=5)

    listing = api_client.get("/api/v1/quests/").json()
    detail = api_client.get("/api/v1/quests/transformers/").json()

    assert listing["results"][0]["slug"] == "transformers"
    assert detail["lesson_count"] == 2
    assert [lesson["slug"] for lesson in detail["lessons"]] == ["intro", "embedding-dimension"]
    assert detail["lessons"][0] == {
        "slug": "intro",
        "number": 1,
        "title": detail["lessons"][0]["title"],
        "estimated_minutes": 5,
        "xp": 20,
        "tags": [],
        "published": True,
        "completed": None,
    }
    assert detail["units"] == [{"title": None, "lessons": ["intro", "embedding-dimension"]}]


def test_quest_detail_marks_completed_lessons_for_a_signed_in_learner(user_client, user, quest):
    done = LessonFactory(quest=quest, position=1)
    LessonFactory(quest=quest, position=2)
    complete_lesson(user=user, lesson_slug=done.slug)

    lessons = user_client.get("/api/v1/quests/transformers/").json()["lessons"]

    assert [lesson["completed"] for lesson in lessons] == [True, False]


def test_quest_detail_counts_the_learners_completed_lessons_and_percent(user_client, user, quest):
    lessons = [LessonFactory(quest=quest, position=n) for n in range(3)]
    complete_lesson(user=user, lesson_slug=lessons[0].slug)

    detail = user_client.get("/api/v1/quests/transformers/").json()

    assert (detail["lessons_completed"], detail["percent_complete"]) == (1, 33)


def test_quest_detail_percent_counts_only_published_lessons_for_staff(
    staff_client, staff_user, quest
):
    published = LessonFactory(quest=quest, position=1)
    LessonFactory(quest=quest, position=2, published=False)
    complete_lesson(user=staff_user, lesson_slug=published.slug)

    detail = staff_client.get("/api/v1/quests/transformers/").json()

    assert detail["lesson_count"] == 2
    assert (detail["lessons_completed"], detail["percent_complete"]) == (1, 100)


def test_quest_detail_has_no_counts_when_signed_out(api_client, quest):
    LessonFactory(quest=quest)

    detail = api_client.get("/api/v1/quests/transformers/").json()

    assert (detail["lessons_completed"], detail["percent_complete"]) == (None, None)


def test_quest_detail_etag_changes_when_the_learner_completes_a_lesson(user_client, user, quest):
    lesson = LessonFactory(quest=quest)
    etag = user_client.get("/api/v1/quests/transformers/")["ETag"]
    complete_lesson(user=user, lesson_slug=lesson.slug)

    response = user_client.get("/api/v1/quests/transformers/", HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 200


def test_quest_detail_runs_a_fixed_number_of_queries(
    user_client, quest, django_assert_max_num_queries
):
    LessonFactory.create_batch(30, quest=quest, tags=["x"])

    with django_assert_max_num_queries(4):
        assert user_client.get("/api/v1/quests/transformers/").status_code == 200


def test_unknown_quest_is_404(api_client):
    assert api_client.get("/api/v1/quests/nope/").status_code == 404


def test_writes_to_read_only_endpoints_are_405(staff_client, d_model):
    response = staff_client.post("/api/v1/lessons/embedding-dimension/", {})

    assert response.status_code == 405
    assert response.json()["type"] == "method_not_allowed"
