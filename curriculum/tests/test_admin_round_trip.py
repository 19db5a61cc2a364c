"""The admin and the files stay in step: after an editor saves a lesson without a change, the
commands export_curriculum -> load_curriculum -> export_curriculum give identical files, and
those are the files the lesson was loaded from."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from lessons.models import Lesson, Quest, Unit
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


def test_an_outline_arranged_in_the_admin_round_trips_through_the_files(
    client, editor, demo_slice, tmp_path
):
    # given the demo slice, arranged in the outline page: the first lesson alone, the rest in
    # a unit
    _command("load_curriculum", demo_slice)
    quest = Quest.objects.get(slug="transformers")
    first, *rest = Lesson.objects.filter(quest=quest).order_by("position")
    unit = Unit.objects.create(quest=quest, title="Embeddings")
    opened = [{"id": lesson.id, "version": lesson.version} for lesson in [first, *rest]]
    response = client.post(
        reverse("admin:lessons_quest_outline_order", args=[quest.id]),
        {"lessons": opened[:1], "units": [{"id": unit.id, "lessons": opened[1:]}]},
        content_type="application/json",
    )
    assert response.status_code == 200

    # when exported, loaded into the same database and exported again
    one, two = tmp_path / "one", tmp_path / "two"
    _command("export_curriculum", one)
    loaded = _command("load_curriculum", one)
    _command("export_curriculum", two)

    # then the files name the unit, the load changes nothing, the exports are identical
    lesson_file = (one / "transformers" / "lessons" / f"{rest[0].slug}.yaml").read_text()
    assert "\nunit: Embeddings\n" in lesson_file
    assert "unit:" not in (one / "transformers" / "lessons" / f"{first.slug}.yaml").read_text()
    assert "Nothing to change" in loaded
    assert _files(two) == _files(one)


def test_loading_files_with_units_creates_them_in_order_of_first_lesson(demo_slice, tmp_path):
    _command("load_curriculum", demo_slice)
    quest = Quest.objects.get(slug="transformers")
    slugs = list(
        Lesson.objects.filter(quest=quest).order_by("position").values_list("slug", flat=True)
    )
    _command("export_curriculum", tmp_path)
    lessons = tmp_path / "transformers" / "lessons"
    for slug, title in zip(slugs, ["Second", "First", "First"], strict=False):
        path = lessons / f"{slug}.yaml"
        text = path.read_text()
        path.write_text(text.replace("\ntitle:", f"\nunit: {title}\ntitle:", 1))
    Unit.objects.all().delete()

    _command("load_curriculum", tmp_path)

    assert list(Unit.objects.filter(quest=quest).values_list("title", "position")) == [
        ("Second", 1),
        ("First", 2),
    ]
    assert Lesson.objects.get(slug=slugs[1]).unit.title == "First"
