"""Cached lesson and quest pages: never a draft, never someone else's marks, never stale;
a fixed number of queries cold and none warm, signed out and signed in."""

import pytest
from django.urls import reverse

from accounts.tests.factories import UserFactory
from curriculum.services import load_curriculum
from curriculum.tests.test_curriculum import lesson_file, write_content
from lessons.models import Block
from lessons.services import set_published
from lessons.tests.factories import (
    LessonFactory,
    LinkFactory,
    ProseBlockFactory,
    QuestFactory,
    TableBlockFactory,
)
from lessons.tests.test_admin import change_form_data
from progress.services import complete_lesson

pytestmark = pytest.mark.django_db

LESSON = "/api/v1/lessons/{}/"
QUEST = "/api/v1/quests/{}/"


@pytest.fixture
def quest():
    return QuestFactory(slug="transformers", title="How transformers work")


@pytest.fixture
def lesson(quest):
    lesson = LessonFactory(quest=quest, slug="attention", position=1)
    ProseBlockFactory(lesson=lesson, position=1, markdown="Attention **weights**.")
    return lesson


# --- Lesson: query counts ---------------------------------------------------------------------

# Cold: the lesson with its quest, tags, blocks, links (4), its neighbours (1), its exercise (1)
# and its comment count (1). Warm: none.
LESSON_COLD_QUERIES = 7


@pytest.mark.parametrize("blocks", [1, 40])
def test_lesson_read_signed_out_runs_seven_queries_cold_and_none_warm(
    api_client, quest, blocks, django_assert_num_queries
):
    lesson = LessonFactory(quest=quest)
    for position in range(blocks):
        TableBlockFactory(lesson=lesson, position=position)
        LinkFactory(lesson=lesson, position=position)

    with django_assert_num_queries(LESSON_COLD_QUERIES):
        cold = api_client.get(LESSON.format(lesson.slug))
    with django_assert_num_queries(0):
        warm = api_client.get(LESSON.format(lesson.slug))

    assert cold.status_code == warm.status_code == 200
    assert warm.json() == cold.json()
    assert len(warm.json()["blocks"]) == blocks


def test_lesson_read_signed_in_runs_seven_queries_cold_and_none_warm(
    client_for, user, lesson, django_assert_num_queries
):
    client = client_for(user)

    with django_assert_num_queries(LESSON_COLD_QUERIES):
        assert client.get(LESSON.format(lesson.slug)).status_code == 200
    with django_assert_num_queries(0):
        assert client.get(LESSON.format(lesson.slug)).status_code == 200


def test_a_signed_in_read_is_served_from_the_body_a_signed_out_read_cached(
    client_for, api_client, user, lesson, django_assert_num_queries
):
    anonymous = api_client.get(LESSON.format(lesson.slug))

    with django_assert_num_queries(0):
        mine = client_for(user).get(LESSON.format(lesson.slug))

    assert mine.json() == anonymous.json()
    assert mine["ETag"] == anonymous["ETag"]


def test_a_matching_if_none_match_answers_304_without_a_query(
    api_client, lesson, django_assert_num_queries
):
    etag = api_client.get(LESSON.format(lesson.slug))["ETag"]

    with django_assert_num_queries(0):
        response = api_client.get(LESSON.format(lesson.slug), HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 304
    assert response["ETag"] == etag


# --- Lesson: never a draft --------------------------------------------------------------------


def test_an_unpublished_lesson_is_404_for_learners_right_after_it_was_cached(
    client_for, api_client, user, lesson
):
    assert api_client.get(LESSON.format(lesson.slug)).status_code == 200

    set_published(lesson_ids=[lesson.id], published=False)

    assert api_client.get(LESSON.format(lesson.slug)).status_code == 404
    assert client_for(user).get(LESSON.format(lesson.slug)).status_code == 404


def test_a_draft_staff_read_is_never_served_to_a_learner(client_for, api_client, user, quest):
    draft = LessonFactory(quest=quest, published=False)
    staff = client_for(UserFactory(is_staff=True))

    assert staff.get(LESSON.format(draft.slug)).status_code == 200
    assert api_client.get(LESSON.format(draft.slug)).status_code == 404
    assert client_for(user).get(LESSON.format(draft.slug)).status_code == 404


def test_staff_neighbours_with_drafts_never_reach_learners(client_for, api_client, quest, lesson):
    LessonFactory(quest=quest, slug="draft-next", position=2, published=False)
    staff = client_for(UserFactory(is_staff=True))

    assert staff.get(LESSON.format(lesson.slug)).json()["next"]["slug"] == "draft-next"
    assert api_client.get(LESSON.format(lesson.slug)).json()["next"] is None
    assert staff.get(LESSON.format(lesson.slug)).json()["next"]["slug"] == "draft-next"


def test_a_newly_published_neighbour_shows_on_the_next_read(api_client, quest, lesson):
    draft = LessonFactory(quest=quest, slug="next-one", position=2, published=False)
    assert api_client.get(LESSON.format(lesson.slug)).json()["next"] is None

    set_published(lesson_ids=[draft.id], published=True)

    assert api_client.get(LESSON.format(lesson.slug)).json()["next"]["slug"] == "next-one"


# --- Lesson: never stale ----------------------------------------------------------------------


def test_an_admin_edit_of_a_block_shows_on_the_next_read(client, api_client, lesson):
    editor = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(editor)
    block = lesson.blocks.get()
    assert api_client.get(LESSON.format(lesson.slug)).json()["blocks"][0]["html"] == (
        "<p>Attention <strong>weights</strong>.</p>"
    )

    response = client.post(
        reverse("admin:lessons_lesson_change", args=[lesson.id]),
        change_form_data(
            lesson, [{"id": block.id, "kind": "prose", "position": 1, "markdown": "New *text*."}]
        ),
    )

    assert response.status_code == 302
    assert Block.objects.get(pk=block.pk).html == "<p>New <em>text</em>.</p>"
    read = api_client.get(LESSON.format(lesson.slug)).json()
    assert read["blocks"][0] == {
        "id": block.id,
        "kind": "prose",
        "markdown": "New *text*.\n",
        "html": "<p>New <em>text</em>.</p>",
    }


def test_an_admin_title_edit_shows_on_the_next_read_of_the_lesson_and_its_quest(
    client, api_client, lesson
):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    api_client.get(LESSON.format(lesson.slug))
    api_client.get(QUEST.format("transformers"))
    lesson.title = "Attention, renamed"
    block = lesson.blocks.get()

    client.post(
        reverse("admin:lessons_lesson_change", args=[lesson.id]),
        change_form_data(
            lesson, [{"id": block.id, "kind": "prose", "position": 1, "markdown": block.markdown}]
        ),
    )

    assert api_client.get(LESSON.format(lesson.slug)).json()["title"] == "Attention, renamed"
    outline = api_client.get(QUEST.format("transformers")).json()
    assert outline["lessons"][0]["title"] == "Attention, renamed"


def test_a_curriculum_load_shows_on_the_next_read(tmp_path, api_client):
    root = write_content(tmp_path, [lesson_file("first")], quest_slug="demo")
    load_curriculum(root=root)
    before = api_client.get(LESSON.format("first")).json()["blocks"][0]["html"]

    changed = lesson_file("first")
    changed["blocks"][0]["markdown"] = "Rewritten _prose_."
    write_content(tmp_path, [changed], quest_slug="demo")
    load_curriculum(root=root)

    after = api_client.get(LESSON.format("first")).json()["blocks"][0]
    assert before != after["html"]
    assert after["html"] == "<p>Rewritten <em>prose</em>.</p>"


def test_a_block_saved_by_code_shows_on_the_next_read(api_client, lesson):
    api_client.get(LESSON.format(lesson.slug))

    ProseBlockFactory(lesson=lesson, position=2, markdown="Added.")

    assert len(api_client.get(LESSON.format(lesson.slug)).json()["blocks"]) == 2


def test_a_new_comment_changes_the_comment_count_on_the_next_read(user, api_client, lesson):
    from community.services import post_comment

    assert api_client.get(LESSON.format(lesson.slug)).json()["comment_count"] == 0

    post_comment(author=user, lesson=lesson, body="Nice.")

    assert api_client.get(LESSON.format(lesson.slug)).json()["comment_count"] == 1


# --- Quest outline ----------------------------------------------------------------------------

# Cold: the quest, its lessons, their tags (3); signed in, also the learner's completions (1).
OUTLINE_COLD_QUERIES = 3


@pytest.mark.parametrize("lessons", [1, 30])
def test_outline_signed_out_runs_three_queries_cold_and_none_warm(
    api_client, quest, lessons, django_assert_num_queries
):
    LessonFactory.create_batch(lessons, quest=quest, tags=["x"])

    with django_assert_num_queries(OUTLINE_COLD_QUERIES):
        assert api_client.get(QUEST.format("transformers")).status_code == 200
    with django_assert_num_queries(0):
        assert api_client.get(QUEST.format("transformers")).json()["lesson_count"] == lessons


@pytest.mark.parametrize("lessons", [1, 30])
def test_outline_signed_in_runs_four_queries_cold_and_none_warm(
    client_for, user, quest, lessons, django_assert_num_queries
):
    LessonFactory.create_batch(lessons, quest=quest, tags=["x"])
    client = client_for(user)

    with django_assert_num_queries(OUTLINE_COLD_QUERIES + 1):
        assert client.get(QUEST.format("transformers")).status_code == 200
    with django_assert_num_queries(0):
        assert client.get(QUEST.format("transformers")).status_code == 200


def test_a_second_learner_reads_the_cached_outline_with_one_query_for_their_marks(
    client_for, user, quest, django_assert_num_queries
):
    LessonFactory.create_batch(5, quest=quest)
    client_for(user).get(QUEST.format("transformers"))
    second = client_for(UserFactory())

    with django_assert_num_queries(1):
        assert second.get(QUEST.format("transformers")).status_code == 200


def test_one_learners_marks_never_show_to_another_or_to_anonymous(
    client_for, api_client, user, quest
):
    first = LessonFactory(quest=quest, position=1)
    LessonFactory(quest=quest, position=2)
    complete_lesson(user=user, lesson_slug=first.slug)
    other = UserFactory()

    mine = client_for(user).get(QUEST.format("transformers"))
    theirs = client_for(other).get(QUEST.format("transformers"))
    anonymous = api_client.get(QUEST.format("transformers"))

    assert [lesson["completed"] for lesson in mine.json()["lessons"]] == [True, False]
    assert [lesson["completed"] for lesson in theirs.json()["lessons"]] == [False, False]
    assert [lesson["completed"] for lesson in anonymous.json()["lessons"]] == [None, None]
    assert len({mine["ETag"], theirs["ETag"], anonymous["ETag"]}) == 3


def test_each_learners_counts_are_their_own_on_the_cached_outline(
    client_for, api_client, user, quest
):
    lessons = LessonFactory.create_batch(4, quest=quest)
    complete_lesson(user=user, lesson_slug=lessons[0].slug)
    other = UserFactory()

    mine = client_for(user).get(QUEST.format("transformers")).json()
    theirs = client_for(other).get(QUEST.format("transformers")).json()
    anonymous = api_client.get(QUEST.format("transformers")).json()

    assert (mine["lessons_completed"], mine["percent_complete"]) == (1, 25)
    assert (theirs["lessons_completed"], theirs["percent_complete"]) == (0, 0)
    assert (anonymous["lessons_completed"], anonymous["percent_complete"]) == (None, None)


def test_a_completion_shows_in_the_outline_on_the_next_read(client_for, user, quest):
    lesson = LessonFactory(quest=quest)
    client = client_for(user)
    etag = client.get(QUEST.format("transformers"))["ETag"]

    complete_lesson(user=user, lesson_slug=lesson.slug)

    response = client.get(QUEST.format("transformers"), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response.json()["lessons"][0]["completed"] is True


def test_a_signed_in_outline_answers_304_without_a_query_when_warm(
    client_for, user, quest, django_assert_num_queries
):
    LessonFactory.create_batch(3, quest=quest)
    client = client_for(user)
    etag = client.get(QUEST.format("transformers"))["ETag"]

    with django_assert_num_queries(0):
        assert client.get(QUEST.format("transformers"), HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_an_outline_never_lists_a_draft_to_learners(client_for, api_client, user, quest):
    LessonFactory(quest=quest, position=1)
    draft = LessonFactory(quest=quest, position=2, published=False)
    staff = client_for(UserFactory(is_staff=True))

    assert staff.get(QUEST.format("transformers")).json()["lesson_count"] == 2
    assert api_client.get(QUEST.format("transformers")).json()["lesson_count"] == 1
    assert client_for(user).get(QUEST.format("transformers")).json()["lesson_count"] == 1

    set_published(lesson_ids=[draft.id], published=True)
    assert api_client.get(QUEST.format("transformers")).json()["lesson_count"] == 2


def test_cached_and_merged_bodies_are_byte_for_byte_the_uncached_ones(
    client_for, api_client, user, quest, settings
):
    lessons = LessonFactory.create_batch(5, quest=quest, tags=["x", "y"])
    ProseBlockFactory(lesson=lessons[0], markdown="Ünïcode **and** <b>tags</b>")
    complete_lesson(user=user, lesson_slug=lessons[1].slug)
    paths = [LESSON.format(lessons[0].slug), QUEST.format("transformers")]
    reads = [(client, path) for client in (api_client, client_for(user)) for path in paths]
    for client, path in reads:
        client.get(path)  # cache them

    cached = [client.get(path).content for client, path in reads]
    settings.PAGE_CACHE = False
    built = [client.get(path).content for client, path in reads]

    assert cached == built
    assert b'"completed":true' in cached[3]
    assert b'"lessons_completed":1,"percent_complete":20' in cached[3]
