"""Editing lessons through the admin's pages, as a content editor and as others."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone
from rest_framework.throttling import ScopedRateThrottle

from accounts.tests.factories import UserFactory
from lessons.models import Block, Lesson
from lessons.tests.factories import (
    CodeBlockFactory,
    LessonFactory,
    LinkFactory,
    ProseBlockFactory,
    QuestFactory,
    TableBlockFactory,
)

pytestmark = pytest.mark.django_db


def inline_management(prefix: str, total: int, initial: int) -> dict:
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def change_form_data(lesson: Lesson, blocks: list[dict], links: list[dict] | None = None) -> dict:
    """The POST body the admin's change form sends for `lesson` with these inline rows."""
    links = links or []
    data = {
        "quest": str(lesson.quest_id),
        "title": lesson.title,
        "slug": lesson.slug,
        "summary": lesson.summary,
        "estimated_minutes": str(lesson.estimated_minutes),
        "xp": str(lesson.xp),
        "position": str(lesson.position),
        "tags": [str(t.id) for t in lesson.tags.all()],
        **inline_management("blocks", len(blocks), sum(1 for b in blocks if b.get("id"))),
        **inline_management("links", len(links), sum(1 for link in links if link.get("id"))),
        **inline_management("exercises", 0, 0),
    }
    if lesson.published:
        data["published"] = "on"
    empty = {
        "kind": "",
        "position": "0",
        "markdown": "",
        "style": "",
        "caption": "",
        "table": "",
        "title": "",
        "language": "",
        "source": "",
    }
    for index, block in enumerate(blocks):
        row = {**empty, **block, "lesson": str(lesson.id)}
        for key, value in row.items():
            data[f"blocks-{index}-{key}"] = "" if value is None else str(value)
    for index, link in enumerate(links):
        for key, value in {**link, "lesson": str(lesson.id)}.items():
            data[f"links-{index}-{key}"] = str(value)
    return data


def test_content_editors_group_has_exactly_the_lesson_permissions():
    codenames = set(
        Group.objects.get(name="Content editors")
        .permissions.filter(content_type__app_label="lessons")
        .values_list("codename", flat=True)
    )

    assert "change_lesson" in codenames
    assert "add_block" in codenames
    assert "delete_link" in codenames
    assert "delete_quest" not in codenames
    assert (
        not Group.objects.get(name="Content editors")
        .permissions.filter(content_type__app_label__in=["accounts", "auth", "progress"])
        .exists()
    )


def test_editor_reorders_and_edits_blocks_through_the_change_form(client, editor):
    lesson = LessonFactory()
    first = ProseBlockFactory(lesson=lesson, position=1, markdown="First")
    second = CodeBlockFactory(lesson=lesson, position=2)
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    assert client.get(url).status_code == 200

    blocks = [
        {"id": first.id, "kind": "prose", "position": 2, "markdown": "First, edited"},
        {
            "id": second.id,
            "kind": "code",
            "position": 1,
            "title": "Example",
            "language": "python",
            "source": "print(2)",
        },
        {
            "kind": "table",
            "position": 3,
            "caption": "New",
            "table": "Model\td_model\nGPT-2\t768\n",
        },
    ]
    response = client.post(url, change_form_data(lesson, blocks))

    assert response.status_code == 302, response.context["errors"] if response.context else ""
    ordered = list(lesson.blocks.order_by("position"))
    assert [b.kind for b in ordered] == ["code", "prose", "table"]
    assert ordered[1].markdown == "First, edited\n"
    assert ordered[2].rows == [["GPT-2", "768"]]


def test_admin_refuses_a_ragged_table_with_a_field_error(client, editor):
    lesson = LessonFactory()
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    blocks = [{"kind": "table", "position": 1, "caption": "x", "table": "a\tb\n1\n"}]

    response = client.post(url, change_form_data(lesson, blocks))

    assert response.status_code == 200
    assert "row 1 has 1 cells" in response.content.decode()
    assert not Block.objects.filter(lesson=lesson).exists()


def test_editor_adds_a_link_inline(client, editor):
    lesson = LessonFactory()
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    links = [{"position": 1, "title": "Paper", "url": "https://arxiv.org/abs/1706.03762"}]

    response = client.post(url, change_form_data(lesson, [], links))

    assert response.status_code == 302
    assert lesson.links.get().title == "Paper"


def test_editor_publishes_and_unpublishes_with_list_actions_once_confirmed(client, editor):
    drafts = LessonFactory.create_batch(2, published=False)
    url = reverse("admin:lessons_lesson_changelist")
    ids = [d.id for d in drafts]

    client.post(url, {"action": "publish", "_selected_action": ids, "post": "yes"})
    assert Lesson.objects.filter(published=True).count() == 2

    client.post(url, {"action": "unpublish", "_selected_action": [ids[0]], "post": "yes"})
    assert list(Lesson.objects.filter(published=False)) == [drafts[0]]


def test_publish_action_asks_first_listing_what_learners_will_see(client, editor):
    draft = LessonFactory(published=False, title="Attention heads")
    live = LessonFactory(published=True, title="Tokenization")
    url = reverse("admin:lessons_lesson_changelist")

    response = client.post(url, {"action": "publish", "_selected_action": [draft.id, live.id]})

    body = response.content.decode()
    assert response.status_code == 200
    assert "Learners will see these lessons at once." in body
    assert "Publish lessons: 1 of the 2 selected" in body
    assert "Attention heads" in body
    assert "Already published: 1" in body
    assert "Tokenization" in body
    assert '<input type="hidden" name="post" value="yes">' in body
    assert not Lesson.objects.get(id=draft.id).published


def test_unpublish_action_says_a_schedule_is_cleared(client, editor):
    scheduled = LessonFactory(published=False, publish_at=timezone.now() + timedelta(days=1))
    url = reverse("admin:lessons_lesson_changelist")

    response = client.post(url, {"action": "unpublish", "_selected_action": [scheduled.id]})

    assert "the schedule is cleared" in response.content.decode()
    assert Lesson.objects.get(id=scheduled.id).publish_at is not None


def test_publish_action_with_nothing_to_publish_offers_only_the_way_back(client, editor):
    live = LessonFactory(published=True)
    url = reverse("admin:lessons_lesson_changelist")

    response = client.post(url, {"action": "publish", "_selected_action": [live.id]})

    body = response.content.decode()
    assert "Nothing to do: none of the selected lessons would change." in body
    assert 'type="submit"' not in body.split('<form method="post">')[-1]


def test_editor_searches_and_filters_by_quest_and_tag(client, editor):
    quest = QuestFactory(title="Transformers")
    LessonFactory(quest=quest, title="Attention heads", tags=["attention"])
    LessonFactory(quest=quest, title="Tokenization", tags=["tokens"])
    LessonFactory(title="Elsewhere", tags=["attention"])
    url = reverse("admin:lessons_lesson_changelist")

    by_search = client.get(url, {"q": "attention"}).context["cl"].result_list
    by_quest = client.get(url, {"quest__id__exact": quest.id}).context["cl"].result_list
    tag_id = Lesson.objects.get(title="Tokenization").tags.get().id
    by_tag = client.get(url, {"tags__id__exact": tag_id}).context["cl"].result_list

    assert {lesson.title for lesson in by_search} == {"Attention heads", "Elsewhere"}
    assert {lesson.title for lesson in by_quest} == {"Attention heads", "Tokenization"}
    assert [lesson.title for lesson in by_tag] == ["Tokenization"]


def test_editor_finds_a_lesson_by_words_inside_its_blocks_once(client, editor):
    lesson = LessonFactory(title="Embedding dimension")
    ProseBlockFactory(lesson=lesson, markdown="GPT-2 small has a residual width of 768.")
    ProseBlockFactory(lesson=lesson, markdown="The residual width sets the model's capacity.")
    ProseBlockFactory(lesson=LessonFactory(title="Tokenization"), markdown="Byte pairs.")
    url = reverse("admin:lessons_lesson_changelist")

    found = client.get(url, {"q": "residual width"}).context["cl"].result_list

    assert [each.title for each in found] == ["Embedding dimension"]


def test_editor_previews_a_draft_with_its_blocks_rendered(client, editor):
    lesson = LessonFactory(published=False, title="Draft lesson")
    ProseBlockFactory(lesson=lesson, markdown="Hello **world**")
    TableBlockFactory(lesson=lesson)
    LinkFactory(lesson=lesson)

    response = client.get(reverse("admin:lessons_lesson_preview", args=[lesson.id]))

    body = response.content.decode()
    assert response.status_code == 200
    assert "Draft lesson" in body
    assert "<strong>world</strong>" in body
    assert "<td>768</td>" in body
    assert "Draft" in body


def test_staff_without_the_editor_group_cannot_open_or_change_lessons(client):
    lesson = LessonFactory(title="Original")
    client.force_login(UserFactory(is_staff=True))

    change = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id]))
    post = client.post(
        reverse("admin:lessons_lesson_change", args=[lesson.id]),
        change_form_data(lesson, []) | {"title": "Hacked"},
    )
    preview = client.get(reverse("admin:lessons_lesson_preview", args=[lesson.id]))

    assert change.status_code == 403
    assert post.status_code == 403
    assert preview.status_code == 403
    lesson.refresh_from_db()
    assert lesson.title == "Original"


def test_a_learner_is_sent_to_the_admin_login(client, user):
    client.force_login(user)

    response = client.get(reverse("admin:lessons_lesson_changelist"))

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_editor_adds_an_exercise_on_the_lesson_page(client, editor):
    from exercises.models import Exercise

    lesson = LessonFactory()
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    data = change_form_data(lesson, []) | {
        **inline_management("exercises", 1, 0),
        "exercises-0-lesson": str(lesson.id),
        "exercises-0-title": "Tabulate three models",
        "exercises-0-slug": "tabulate-three-models",
        "exercises-0-position": "0",
        "exercises-0-prompt": "Pull the config.json of three open-weight models.",
        "exercises-0-key_column": "model",
        "exercises-0-key_synonyms": '["name"]',
        "exercises-0-rows_required": "3",
        "exercises-0-pass_mark": "0.8",
        "exercises-0-xp": "60",
    }

    response = client.post(url, data)

    assert response.status_code == 302, response.context["errors"] if response.context else ""
    exercise = Exercise.objects.get(lesson=lesson)
    assert exercise.title == "Tabulate three models"
    assert exercise.key_synonyms == ["name"]


# --- The block editor ---------------------------------------------------------------------


def test_blocks_render_open_reorderable_and_anchored(client, editor):
    lesson = LessonFactory()
    block = ProseBlockFactory(lesson=lesson, position=1)

    body = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id])).content.decode()

    blocks_group = body[body.index('id="blocks-group"') : body.index('id="links-group"')]
    assert "<details>" not in blocks_group
    assert f'id="block-{block.id}"' in blocks_group
    # The order travels in hidden position inputs the block editor renumbers.
    assert 'name="blocks-0-position"' in blocks_group
    assert 'class="lp-block-position"' in blocks_group
    assert "lp-collapse-all" in blocks_group
    assert 'aria-live="polite"' in blocks_group
    assert "adminsortable2" not in body
    assert "lessons/admin/block-editor.js" in body
    assert "lessons/admin/block-editor.css" in body
    assert 'id="lp-block-kind-fields"' in body


def test_a_table_block_is_edited_as_tab_separated_text_with_a_grid(client, editor):
    lesson = LessonFactory()
    TableBlockFactory(lesson=lesson, columns=["Model", "d_model"], rows=[["GPT-2", "768"]])

    body = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id])).content.decode()

    assert "Model\td_model\nGPT-2\t768" in body
    assert "<th>Model</th><th>d_model</th>" in body
    assert "1 row" in body
    assert 'name="blocks-0-columns"' not in body


@pytest.mark.parametrize(
    "pasted",
    [
        "Model\td_model\tLayers\nGPT-2\t768\t12\nBERT-base\t768\t12\n",
        "Model,d_model,Layers\r\nGPT-2,768,12\r\n\r\nBERT-base,768,12\r\n",
        'Model;d_model;Layers\n"GPT-2";768;12\nBERT-base;768;12\n',
    ],
    ids=["tsv-from-a-spreadsheet", "csv", "semicolons"],
)
def test_a_pasted_table_is_stored_as_columns_and_rows(client, editor, pasted):
    lesson = LessonFactory()
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    blocks = [{"kind": "table", "position": 1, "caption": "Sizes", "table": pasted}]

    response = client.post(url, change_form_data(lesson, blocks))

    assert response.status_code == 302
    block = lesson.blocks.get()
    assert block.columns == ["Model", "d_model", "Layers"]
    assert block.rows == [["GPT-2", "768", "12"], ["BERT-base", "768", "12"]]


def test_a_block_keeps_only_its_kinds_fields(client, editor):
    lesson = LessonFactory()
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    blocks = [
        {
            "kind": "prose",
            "position": 1,
            "markdown": "Prose",
            "table": "a\tb\n1\t2\n",
            "source": "print(1)",
            "language": "python",
        }
    ]

    response = client.post(url, change_form_data(lesson, blocks))

    assert response.status_code == 302
    block = lesson.blocks.get()
    assert (block.markdown, block.columns, block.rows, block.source, block.language) == (
        "Prose\n",
        [],
        [],
        "",
        "",
    )


def _field_errors(response, field: str, prefix: str = "blocks") -> list[str]:
    formset = next(
        f for f in response.context["inline_admin_formsets"] if f.formset.prefix == prefix
    )
    return [str(e) for e in formset.formset.forms[0].errors.get(field, [])]


@pytest.mark.parametrize(
    ("block", "field", "message"),
    [
        (
            {"kind": "table", "caption": "x", "table": "a\tb\n1\t2\n3\n"},
            "table",
            "row 2 has 1 cells; the table has 2 columns",
        ),
        (
            {"kind": "code", "title": "x", "language": "pythn", "source": "x = 1"},
            "language",
            "unknown language 'pythn'",
        ),
        (
            {"kind": "prose", "markdown": "Hi <script>alert(1)</script>"},
            "markdown",
            "Refused: remove <script> and its content (not allowed).",
        ),
        (
            {"kind": "callout", "style": "tip", "markdown": "[click](javascript:alert(1))"},
            "markdown",
            "Refused: remove the `javascript:` link 'javascript:alert(1)'",
        ),
        (
            {"kind": "prose", "markdown": '<a href="https://x.org" onclick="steal()">x</a>'},
            "markdown",
            'Refused: remove the attribute "onclick" from <a>.',
        ),
        (
            {"kind": "prose", "markdown": r"Softmax $\left( x$ here."},
            "markdown",
            r"Refused: fix the math `\left( x`: it cannot be read",
        ),
    ],
    ids=[
        "ragged-table",
        "unknown-language",
        "script",
        "javascript-link",
        "event-handler",
        "unreadable-math",
    ],
)
def test_bad_blocks_get_a_message_on_their_field(client, editor, block, field, message):
    lesson = LessonFactory()
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])

    response = client.post(url, change_form_data(lesson, [{"position": 1, **block}]))

    assert response.status_code == 200
    assert any(message in error for error in _field_errors(response, field))
    assert not lesson.blocks.exists()


def test_math_saved_in_the_admin_reaches_learners_as_mathml(client, editor, api_client):
    lesson = LessonFactory(published=True)
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    block = {"kind": "prose", "position": 1, "markdown": r"Scores scale by $1/\sqrt{d_k}$."}

    assert client.post(url, change_form_data(lesson, [block])).status_code == 302

    html = api_client.get(f"/api/v1/lessons/{lesson.slug}/").json()["blocks"][0]["html"]
    assert '<math display="inline">' in html
    assert "<msqrt><mrow><msub><mi>d</mi><mi>k</mi></msub></mrow></msqrt>" in html


def test_an_unreadable_table_gets_a_message_not_a_500(client, editor):
    lesson = LessonFactory()
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    huge_cell = "x" * 200_000  # over the csv module's field size limit
    blocks = [{"kind": "table", "position": 1, "caption": "x", "table": f'a,b\n"{huge_cell}",1\n'}]

    response = client.post(url, change_form_data(lesson, blocks))

    assert response.status_code == 200
    assert any("could not be read" in e for e in _field_errors(response, "table"))
    assert not lesson.blocks.exists()


def test_a_link_that_is_not_http_gets_a_message_on_its_url(client, editor):
    lesson = LessonFactory()
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])
    links = [{"position": 1, "title": "Files", "url": "ftp://example.org/paper.pdf"}]

    response = client.post(url, change_form_data(lesson, [], links))

    assert response.status_code == 200
    assert any("must be an http(s) URL" in e for e in _field_errors(response, "url", "links"))
    assert not lesson.links.exists()


def test_the_change_form_offers_the_lesson_preview_one_click_away(client, editor):
    lesson = LessonFactory()

    body = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id])).content.decode()

    preview_url = reverse("admin:lessons_lesson_preview", args=[lesson.id])
    assert f'href="{preview_url}"' in body
    assert f'data-preview-url="{preview_url}"' in body


def test_the_preview_renders_blocks_as_the_api_does(client, editor, api_client):
    lesson = LessonFactory(published=True)
    ProseBlockFactory(
        lesson=lesson, markdown="| a | b |\n|---|---|\n| 1 | 2 |\n\n[x](https://x.org)"
    )
    api_html = api_client.get(f"/api/v1/lessons/{lesson.slug}/").json()["blocks"][0]["html"]

    response = client.get(reverse("admin:lessons_lesson_preview", args=[lesson.id]))

    assert api_html in response.content.decode()
    assert response["X-Frame-Options"] == "SAMEORIGIN"


# --- The Markdown live preview ------------------------------------------------------------

PREVIEW_URL = "/admin/lessons/lesson/markdown-preview/"


def test_markdown_preview_renders_with_the_lesson_renderer_and_names_what_it_strips(client, editor):
    response = client.post(
        PREVIEW_URL,
        {"markdown": "**bold** <script>x()</script> [a](javascript:y)"},
        content_type="application/json",
    )

    assert response.status_code == 200
    body = response.json()
    assert "<strong>bold</strong>" in body["html"]
    assert "script" not in body["html"]
    assert "javascript" not in body["html"]
    assert body["problems"] == [
        "remove <script> and its content (not allowed)",
        "remove the `javascript:` link 'javascript:y' (links must be http(s) or mailto)",
    ]
    # The words a save of this text answers with: the preview and the save agree.
    assert body["refusal"] == "Refused: " + "; ".join(body["problems"]) + "."


def test_markdown_preview_refuses_a_post_without_the_csrf_token(editor):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)

    response = client.post(PREVIEW_URL, {"markdown": "x"}, content_type="application/json")

    assert response.status_code == 403


def test_markdown_preview_answers_get_with_405(client, editor):
    response = client.get(PREVIEW_URL)

    assert response.status_code == 405
    assert response.json()["type"] == "method_not_allowed"


@pytest.mark.parametrize(
    ("body", "status"),
    [("not json", 400), ('{"markdown": 3}', 400), ('{"markdown": "' + "x" * 50_001 + '"}', 413)],
    ids=["not-json", "not-text", "too-long"],
)
def test_markdown_preview_refuses_bad_input_with_the_error_shape(client, editor, body, status):
    response = client.post(PREVIEW_URL, body, content_type="application/json")

    assert response.status_code == status
    assert set(response.json()) == {"type", "title", "status", "detail", "errors"}


def test_markdown_preview_is_rate_limited_per_editor(client, editor, monkeypatch):
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "admin_markdown_preview", "3/min")
    for _ in range(3):
        client.post(PREVIEW_URL, {"markdown": "x"}, content_type="application/json")

    response = client.post(PREVIEW_URL, {"markdown": "x"}, content_type="application/json")

    assert response.status_code == 429


def test_markdown_preview_is_staff_only(client, user):
    client.force_login(user)

    response = client.post(PREVIEW_URL, {"markdown": "x"}, content_type="application/json")

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_markdown_preview_needs_the_lesson_editing_permission(client):
    client.force_login(UserFactory(is_staff=True))

    response = client.post(PREVIEW_URL, {"markdown": "x"}, content_type="application/json")

    assert response.status_code == 403
