"""The change form as an editor meets it: what stops a save, and the words for it."""

import re

import pytest
from django.urls import reverse

from lessons.tests.factories import LessonFactory, ProseBlockFactory
from lessons.tests.test_admin import change_form_data

pytestmark = pytest.mark.django_db

PREVIEW_URL = reverse("admin:lessons_lesson_markdown_preview")


def _bad_lesson_post(lesson):
    blocks = [
        {"kind": "prose", "position": 1, "markdown": "See [this](javascript:alert(1))."},
        {"kind": "prose", "position": 2, "markdown": "Fine."},
        {"kind": "prose", "position": 3, "markdown": "Fine too."},
        {"kind": "table", "position": 4, "caption": "x", "table": "a\tb\n1\n"},
    ]
    return change_form_data(lesson, blocks)


def test_the_error_summary_lists_each_failing_block_with_a_link_and_a_count(client, editor):
    lesson = LessonFactory()

    response = client.post(
        reverse("admin:lessons_lesson_change", args=[lesson.id]), _bad_lesson_post(lesson)
    )

    assert response.status_code == 200
    body = response.content.decode()
    title = re.search(r"<title>(.*?)</title>", body, re.DOTALL).group(1).strip()
    assert title.startswith("2 problems · ")
    summary = body[
        body.index('id="lp-error-summary"') : body.index("</ul>", body.index("lp-error-summary"))
    ]
    assert "Not saved: 2 problems to fix" in summary
    assert 'href="#blocks-0"' in summary
    assert 'href="#blocks-3"' in summary
    assert "Block 1 (prose)" in summary
    assert "Block 4 (table)" in summary
    assert "Refused: remove the `javascript:` link" in summary
    assert [e["href"] for e in response.context["error_summary"]] == ["#blocks-0", "#blocks-3"]


def test_a_valid_save_shows_no_summary(client, editor):
    lesson = LessonFactory()
    ProseBlockFactory(lesson=lesson)

    body = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id])).content.decode()

    assert "lp-error-summary" not in body
    assert "problems ·" not in body


def test_the_live_preview_says_what_the_save_says(client, editor):
    lesson = LessonFactory()
    markdown = "See [this](javascript:alert(1)). <script>x()</script>"
    preview = client.post(PREVIEW_URL, {"markdown": markdown}, content_type="application/json")
    data = change_form_data(lesson, [{"kind": "prose", "position": 1, "markdown": markdown}])

    saved = client.post(reverse("admin:lessons_lesson_change", args=[lesson.id]), data)

    field_errors = saved.context["inline_admin_formsets"][0].formset.forms[0].errors["markdown"]
    assert field_errors == [preview.json()["refusal"]]
    assert preview.json()["refusal"].startswith("Refused: ")


def test_a_new_lessons_slug_is_filled_from_its_title(client, editor):
    body = client.get(reverse("admin:lessons_lesson_add")).content.decode()

    # Django's prepopulate.js fills the slug from the title while it is untouched.
    assert '"id": "#id_slug"' in body or "&quot;id&quot;: &quot;#id_slug&quot;" in body
    assert "admin/js/prepopulate" in body
