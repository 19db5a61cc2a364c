"""The change page's draft kept in the browser (form-draft.js; walked in a browser by
web/e2e/admin-conflict.spec.ts): the page names the lesson and version a draft is kept under,
and loads the script before the block editor, which must start from a restored draft."""

import re

import pytest
from django.urls import reverse

from lessons.tests.factories import LessonFactory

pytestmark = pytest.mark.django_db


def test_the_draft_is_keyed_by_the_lesson_and_the_version_the_page_shows(client, editor):
    lesson = LessonFactory()

    body = client.get(reverse("admin:lessons_lesson_change", args=[lesson.id])).content.decode()

    box = re.search(r'<div class="lp-draft" id="lp-draft"[^>]*>', body)
    assert box is not None
    assert f'data-lesson="{lesson.id}"' in box.group(0)
    assert f'data-version="{lesson.version}"' in box.group(0)
    assert body.index("lessons/admin/form-draft.js") < body.index("lessons/admin/block-editor.js")


def test_a_new_lessons_draft_is_kept_under_new(client, editor):
    body = client.get(reverse("admin:lessons_lesson_add")).content.decode()

    assert 'data-lesson="new" data-version=""' in body
