"""The first HTML answer of the lesson and quest pages, robots.txt and sitemap.xml, read like a
crawler or `curl` would (the Django test client). WEB_DIST_DIR points at a fake build with the
markers web/index.html has."""

import json
import re
from datetime import timedelta
from html import unescape

import pytest
from django.utils import timezone

from lessons.tests.factories import LessonFactory, QuestFactory, d_model_lesson
from progress.services import complete_lesson

pytestmark = pytest.mark.django_db

INDEX = (
    b'<!doctype html><html><head><meta charset="UTF-8" />'
    b'<!--app-head--><meta name="description" content="Default" />'
    b"<title>Learning Platform</title><!--/app-head-->"
    b'<script type="module" src="/assets/index-BVWHmVHu.js"></script></head>'
    b'<body><div id="root"><!--app-html--></div></body></html>'
)
INITIAL_DATA = re.compile(rb'<script type="application/json" id="lp-initial-data">(.*?)</script>')
JSON_LD = re.compile(rb'<script type="application/ld\+json">(.*?)</script>')


@pytest.fixture(autouse=True)
def built_app(tmp_path, settings):
    (tmp_path / "index.html").write_bytes(INDEX)
    settings.WEB_DIST_DIR = tmp_path
    settings.FRONTEND_URL = "https://learn.example.org"
    return tmp_path


@pytest.fixture
def quest():
    return QuestFactory(
        slug="transformers", title="How transformers work", description="From tokens to heads."
    )


@pytest.fixture
def d_model(quest):
    lesson = d_model_lesson(quest)
    lesson.summary = "How wide a model's vectors are, & why it matters."
    lesson.save()
    return lesson


def meta(html: str, name: str) -> str:
    found = re.search(rf'<meta (?:name|property)="{re.escape(name)}" content="([^"]*)"', html)
    assert found, f"no {name}"
    return unescape(found.group(1))


def embedded(response) -> dict:
    found = INITIAL_DATA.search(response.content)
    assert found, "no embedded data"
    return json.loads(found.group(1))


def test_lesson_page_holds_title_first_paragraph_and_table_figures(client, d_model):
    response = client.get("/lessons/embedding-dimension")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Embedding dimension (d_model) · Learning Platform</title>" in html
    assert '<h1 id="lesson-title">Embedding dimension (d_model)</h1>' in html
    assert "The <strong>width</strong>." in html
    assert "<td>GPT-3</td><td>12,288</td>" in html
    assert "Estimating parameter count" in html
    assert "<script>x()" not in html
    assert "Default" not in html


def test_lesson_page_answers_with_or_without_trailing_slash(client, d_model):
    assert client.get("/lessons/embedding-dimension/").status_code == 200


def test_lesson_description_comes_from_its_summary(client, d_model):
    html = client.get("/lessons/embedding-dimension").content.decode()

    assert meta(html, "description") == "How wide a model's vectors are, & why it matters."
    assert meta(html, "og:description") == meta(html, "description")
    assert meta(html, "twitter:description") == meta(html, "description")


def test_lesson_without_summary_is_described_by_its_first_paragraph(client, quest):
    lesson = d_model_lesson(quest)
    lesson.summary = ""
    lesson.save()

    html = client.get("/lessons/embedding-dimension").content.decode()

    assert meta(html, "description") == "The width."


def test_lesson_head_has_canonical_open_graph_and_twitter_tags(client, d_model):
    html = client.get("/lessons/embedding-dimension/").content.decode()

    url = "https://learn.example.org/lessons/embedding-dimension"
    assert f'<link rel="canonical" href="{url}" />' in html
    assert meta(html, "og:url") == url
    assert meta(html, "og:title") == "Embedding dimension (d_model)"
    assert meta(html, "og:type") == "article"
    assert meta(html, "og:site_name") == "Learning Platform"
    assert meta(html, "twitter:card") == "summary"


def test_lesson_json_ld_is_a_learning_resource_of_its_course(client, d_model):
    response = client.get("/lessons/embedding-dimension")

    data = json.loads(JSON_LD.search(response.content).group(1))
    assert data["@type"] == "LearningResource"
    assert data["name"] == "Embedding dimension (d_model)"
    assert data["timeRequired"] == "PT10M"
    assert sorted(data["keywords"].split(", ")) == ["capacity", "d-model", "scaling"]
    assert data["isPartOf"] == {
        "@type": "Course",
        "name": "How transformers work",
        "url": "https://learn.example.org/quests/transformers",
    }
    assert data["url"] == "https://learn.example.org/lessons/embedding-dimension"


def test_json_ld_cannot_close_its_script_element(client, quest):
    LessonFactory(quest=quest, slug="tags", title="</script><script>alert(1)</script>")

    response = client.get("/lessons/tags")

    assert b"</script><script>alert(1)" not in response.content
    data = json.loads(JSON_LD.search(response.content).group(1))
    assert data["name"] == "</script><script>alert(1)</script>"
    assert embedded(response)["lesson"]["title"] == "</script><script>alert(1)</script>"


def test_embedded_lesson_is_the_api_answer_byte_for_byte(client, d_model):
    response = client.get("/lessons/embedding-dimension")
    api = client.get("/api/v1/lessons/embedding-dimension/")

    found = INITIAL_DATA.search(response.content).group(1)
    unescaped = found.replace(b"\\u003C", b"<").replace(b"\\u003E", b">")
    assert unescaped.replace(b"\\u0026", b"&").startswith(b'{"lesson":' + api.content + b",")


@pytest.mark.parametrize("path", ["/lessons/embedding-dimension", "/quests/transformers"])
def test_signed_out_page_embeds_what_the_app_reads_at_once_as_the_api_answers(
    client, d_model, path
):
    data = embedded(client.get(path))

    assert data["session"] == client.get("/api/v1/session").json()
    assert data["session"] == {"is_authenticated": False, "user": None}
    assert data["levels"] == client.get("/api/v1/levels/").json()
    assert data["achievements"] == client.get("/api/v1/achievements/").json()
    assert data["quest"] == client.get("/api/v1/quests/transformers/").json()


def test_signed_in_lesson_page_embeds_only_the_public_lesson(client, user, d_model):
    client.force_login(user)

    response = client.get("/lessons/embedding-dimension")

    assert response["Cache-Control"] == "private, no-cache"
    assert set(embedded(response)) == {"lesson"}


def test_signed_out_page_is_shared_and_revalidated(client, d_model):
    response = client.get("/lessons/embedding-dimension")

    assert response["Cache-Control"] == "no-cache"
    assert "Cookie" in response["Vary"]
    again = client.get("/lessons/embedding-dimension", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_signed_out_lesson_page_costs_the_queries_of_the_api_reads_it_answers(
    client, d_model, django_assert_num_queries
):
    d_model.save()  # a new content version: every read is built again
    # Lesson, blocks, links, tags, neighbours, exercise, comment count.
    with django_assert_num_queries(7):
        client.get("/api/v1/lessons/embedding-dimension/")
    # The quest, its lessons and their tags; the level curve; the achievements.
    with django_assert_num_queries(3 + 1 + 1):
        client.get("/api/v1/quests/transformers/")
        client.get("/api/v1/levels/")
        client.get("/api/v1/achievements/")
    d_model.save()

    with django_assert_num_queries(7 + 3 + 1 + 1):
        client.get("/lessons/embedding-dimension")
    with django_assert_num_queries(0):
        client.get("/lessons/embedding-dimension")


def test_draft_lesson_answers_404_with_the_bare_shell(client, quest):
    LessonFactory(quest=quest, slug="secret", title="Secret draft", published=False)

    response = client.get("/lessons/secret")

    assert response.status_code == 404
    assert response.content == INDEX
    assert b"Secret draft" not in response.content


def test_lesson_scheduled_for_later_answers_404(client, quest):
    LessonFactory(
        quest=quest,
        slug="soon",
        published=False,
        publish_at=timezone.now() + timedelta(days=1),
    )

    assert client.get("/lessons/soon").status_code == 404


def test_unknown_lesson_and_quest_answer_404(client, db):
    assert client.get("/lessons/nope").status_code == 404
    assert client.get("/quests/nope").status_code == 404


def test_staff_get_the_bare_shell_and_the_app_fetches_drafts_too(client, staff_user, quest):
    LessonFactory(quest=quest, slug="secret", title="Secret draft", published=False)
    client.force_login(staff_user)

    response = client.get("/lessons/secret")

    assert response.status_code == 200
    assert response.content == INDEX


def test_quest_page_lists_its_lessons_with_course_json_ld(client, quest, d_model):
    LessonFactory(quest=quest, slug="draft", title="Draft lesson", published=False)

    response = client.get("/quests/transformers")

    html = response.content.decode()
    assert "<h1>How transformers work</h1>" in html
    assert '<a href="/lessons/embedding-dimension">Embedding dimension (d_model)</a>' in html
    assert "Draft lesson" not in html
    assert meta(html, "description") == "From tokens to heads."
    data = json.loads(JSON_LD.search(response.content).group(1))
    assert data["@type"] == "Course"
    assert data["provider"]["name"] == "Learning Platform"
    assert [part["name"] for part in data["hasPart"]] == ["Embedding dimension (d_model)"]
    assert embedded(response)["quest"]["lessons_completed"] is None


def test_signed_in_quest_page_embeds_the_learners_marks_and_is_private(client, user, d_model):
    complete_lesson(user=user, lesson_slug=d_model.slug)
    client.force_login(user)

    response = client.get("/quests/transformers")
    api = client.get("/api/v1/quests/transformers/")

    assert response["Cache-Control"] == "private, no-cache"
    assert "Cookie" in response["Vary"]
    data = embedded(response)["quest"]
    assert data["lessons_completed"] == 1
    assert data["lessons"][0]["completed"] is True
    assert data == api.json()


def test_signed_in_quest_page_costs_no_more_queries_than_the_api_read(
    client, user, d_model, django_assert_num_queries
):
    client.force_login(user)
    client.get("/robots.txt")  # the first request signed in records the session
    # Quest, lessons, tags, the learner's completions (session and user come from the cache).
    with django_assert_num_queries(4):
        client.get("/api/v1/quests/transformers/")
    d_model.save()

    with django_assert_num_queries(4):
        client.get("/quests/transformers")
    with django_assert_num_queries(0):  # kept under the content and the learner's versions
        client.get("/quests/transformers")


def test_sitemap_lists_published_quests_and_lessons_with_lastmod(client, quest, d_model):
    LessonFactory(quest=quest, slug="secret", published=False)
    LessonFactory(
        quest=quest, slug="soon", published=False, publish_at=timezone.now() + timedelta(days=1)
    )

    response = client.get("/sitemap.xml")

    xml = response.content.decode()
    assert response.status_code == 200
    assert "<loc>https://learn.example.org/quests/transformers</loc>" in xml
    assert "<loc>https://learn.example.org/lessons/embedding-dimension</loc>" in xml
    assert f"<lastmod>{d_model.updated_at.date().isoformat()}" in xml
    assert "secret" not in xml
    assert "soon" not in xml


def test_sitemap_shows_a_lesson_published_since_it_was_cached(client, quest, d_model):
    client.get("/sitemap.xml")

    LessonFactory(quest=quest, slug="fresh")

    assert "/lessons/fresh</loc>" in client.get("/sitemap.xml").content.decode()


def test_robots_txt_keeps_crawlers_off_the_api_and_accounts_and_names_the_sitemap(client, db):
    response = client.get("/robots.txt")

    text = response.content.decode()
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "User-agent: *\nAllow: /\n" in text
    for path in ("/admin/", "/api/", "/_allauth/", "/settings", "/account/"):
        assert f"Disallow: {path}\n" in text
    assert "Sitemap: https://learn.example.org/sitemap.xml\n" in text


def test_a_page_cached_for_one_app_address_is_not_served_for_another(client, d_model, settings):
    client.get("/lessons/embedding-dimension")
    settings.FRONTEND_URL = "https://other.example.org"

    html = client.get("/lessons/embedding-dimension").content.decode()

    assert '<link rel="canonical" href="https://other.example.org/lessons/' in html
