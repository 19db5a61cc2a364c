"""The admin and the files stay in step: after an editor saves a lesson without a change, the
commands export_curriculum -> load_curriculum -> export_curriculum give identical files, and
those are the files the lesson was loaded from."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from lessons.models import Lesson
from lessons.tests.admin_pages import posted_unchanged

pytestmark = pytest.mark.django_db


def _files(root: Path) -> dict[Path, str]:
    return {path.relative_to(root): path.read_text() for path in root.rglob("*.yaml")}


def _command(name: str, root: Path) -> str:
    out = StringIO()
    call_command(name, str(root), stdout=out)
    return out.getvalue()


def test_the_commands_round_trip_identical_files_after_an_unchanged_admin_save(
    client, editor, demo_slice, tmp_path
):
    # given the lesson with every kind of block, checks and an exercise, loaded from its file
    _command("load_curriculum", demo_slice)
    lesson = Lesson.objects.get(slug="embedding-dimension")
    url = reverse("admin:lessons_lesson_change", args=[lesson.id])

    # when an editor saves its change page as rendered (lines posted as "\r\n", as browsers do)
    response = client.post(url, posted_unchanged(client.get(url)))
    assert response.status_code == 302, response.context["error_summary"]

    # then export -> load -> export: the load changes nothing and both exports are identical
    first, second = tmp_path / "first", tmp_path / "second"
    _command("export_curriculum", first)
    loaded = _command("load_curriculum", first)
    _command("export_curriculum", second)
    assert "Nothing to change" in loaded
    assert _files(second) == _files(first)
    # ... and the lesson files are the ones it came from, byte for byte
    lessons = Path("transformers") / "lessons"
    source = {p: text for p, text in _files(demo_slice).items() if p.parent == lessons}
    assert {p: text for p, text in _files(first).items() if p.parent == lessons} == source
    assert "\r" not in "".join(_files(first).values())
