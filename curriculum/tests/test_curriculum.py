"""The curriculum loader and exporter: idempotence, bad content, the round trip."""

from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command
from django.urls import reverse

from curriculum.files import CurriculumError, read_curriculum
from curriculum.services import export_curriculum, load_curriculum
from lessons.models import Block, Lesson, Link, Quest
from lessons.tests.admin_pages import posted_unchanged

pytestmark = pytest.mark.django_db


def lesson_file(slug: str, **overrides) -> dict:
    data = {
        "slug": slug,
        "title": f"Title of {slug}",
        "summary": "A summary.",
        "minutes": 10,
        "xp": 30,
        "tags": ["attention", "basics"],
        "published": True,
        "blocks": [
            {"kind": "prose", "markdown": "Some **prose**.\n\nTwo paragraphs.\n"},
            {
                "kind": "table",
                "caption": "Widths",
                "columns": ["Model", "d_model"],
                "rows": [["GPT-2", "768"], ["BERT-base", "768"]],
            },
            {"kind": "code", "title": "Count", "language": "python", "source": "print(1)\n"},
            {"kind": "callout", "style": "tip", "markdown": "Remember this."},
        ],
        "links": [{"title": "Paper", "url": "https://arxiv.org/abs/1706.03762"}],
    }
    data.update(overrides)
    return data


def write_content(root: Path, lessons: list[dict], quest_slug: str = "demo") -> Path:
    folder = root / quest_slug
    (folder / "lessons").mkdir(parents=True, exist_ok=True)
    quest = {
        "slug": quest_slug,
        "title": "Demo quest",
        "description": "About transformers.",
        "lessons": [lesson["slug"] for lesson in lessons],
    }
    (folder / "quest.yaml").write_text(yaml.safe_dump(quest, sort_keys=False))
    for lesson in lessons:
        (folder / "lessons" / f"{lesson['slug']}.yaml").write_text(
            yaml.safe_dump(lesson, sort_keys=False)
        )
    return root


@pytest.fixture
def content(tmp_path) -> Path:
    return write_content(
        tmp_path, [lesson_file("first"), lesson_file("second"), lesson_file("third")]
    )


def test_load_creates_quest_lessons_blocks_and_links_in_order(content):
    report = load_curriculum(root=content)

    assert report.get("quests", "created") == 1
    assert report.get("lessons", "created") == 3
    quest = Quest.objects.get(slug="demo")
    assert list(quest.lessons.order_by("position").values_list("slug", flat=True)) == [
        "first",
        "second",
        "third",
    ]
    lesson = Lesson.objects.get(slug="first")
    assert [b.kind for b in lesson.blocks.order_by("position")] == [
        "prose",
        "table",
        "code",
        "callout",
    ]
    assert lesson.blocks.get(kind="table").rows == [["GPT-2", "768"], ["BERT-base", "768"]]
    assert set(lesson.tags.values_list("slug", flat=True)) == {"attention", "basics"}
    assert lesson.links.get().url == "https://arxiv.org/abs/1706.03762"


def test_second_load_changes_nothing_and_says_so(content):
    load_curriculum(root=content)
    before = {x.slug: x.updated_at for x in Lesson.objects.all()}
    block_ids = list(Block.objects.order_by("id").values_list("id", flat=True))

    report = load_curriculum(root=content)

    assert not report.changed
    assert report.get("lessons", "unchanged") == 3
    assert report.get("quests", "unchanged") == 1
    assert {x.slug: x.updated_at for x in Lesson.objects.all()} == before
    assert list(Block.objects.order_by("id").values_list("id", flat=True)) == block_ids


def test_command_reports_created_then_unchanged_counts(content, capsys):
    call_command("load_curriculum", str(content))
    first = capsys.readouterr().out
    call_command("load_curriculum", str(content))
    second = capsys.readouterr().out

    assert "lessons: 3 created" in first
    assert "Nothing to change" in second
    assert "lessons: 0 created, 0 updated, 3 unchanged" in second


def test_changed_file_updates_only_that_lesson_and_keeps_block_ids(content):
    load_curriculum(root=content)
    table_id = Block.objects.get(lesson__slug="second", kind="table").id
    changed = lesson_file("second", title="A better title")
    changed["blocks"][0]["markdown"] = "Rewritten prose."
    write_content(content, [lesson_file("first"), changed, lesson_file("third")])

    report = load_curriculum(root=content)

    assert report.get("lessons", "updated") == 1
    assert report.get("lessons", "unchanged") == 2
    lesson = Lesson.objects.get(slug="second")
    assert lesson.title == "A better title"
    assert lesson.blocks.order_by("position").first().markdown == "Rewritten prose.\n"
    assert Block.objects.get(lesson=lesson, kind="table").id == table_id


def test_reordering_the_quest_file_reorders_positions(content):
    load_curriculum(root=content)
    write_content(content, [lesson_file("third"), lesson_file("first"), lesson_file("second")])

    load_curriculum(root=content)

    assert list(Lesson.objects.order_by("position").values_list("slug", flat=True)) == [
        "third",
        "first",
        "second",
    ]


def _load_expecting(content: Path, field: str, fragment: str) -> CurriculumError:
    with pytest.raises(CurriculumError) as caught:
        load_curriculum(root=content)
    text = str(caught.value)
    assert field in text, text
    assert fragment in text, text
    return caught.value


@pytest.mark.parametrize(
    ("overrides", "field", "fragment"),
    [
        (
            {"blocks": [{"kind": "video", "url": "x"}]},
            "blocks[1].kind",
            "unknown block kind 'video'",
        ),
        (
            {"links": [{"title": "Bad", "url": "javascript:alert(1)"}]},
            "links[1].url",
            "http(s) URL",
        ),
        (
            {"links": [{"title": "FTP", "url": "ftp://example.com/x"}]},
            "links[1].url",
            "http(s) URL",
        ),
        ({"minutes": 0}, "minutes", "whole number"),
        ({"xp": "lots"}, "xp", "whole number"),
        ({"published": "yes"}, "published", "true or false"),
        ({"tags": ["Not A Slug"]}, "tags", "lowercase"),
        (
            {"blocks": [{"kind": "table", "caption": "", "columns": ["a", "b"], "rows": [["1"]]}]},
            "blocks[1].rows",
            "row 1 has 1 cells",
        ),
        (
            {"blocks": [{"kind": "callout", "style": "shout", "markdown": "x"}]},
            "blocks[1].style",
            "callout style",
        ),
        (
            {"blocks": [{"kind": "code", "title": "", "language": "", "source": ""}]},
            "blocks[1].source",
            "needs source",
        ),
        ({"colour": "red"}, "colour", "unknown field"),
    ],
)
def test_bad_content_names_file_and_field_and_loads_nothing(tmp_path, overrides, field, fragment):
    root = write_content(tmp_path, [lesson_file("good"), lesson_file("bad", **overrides)])

    error = _load_expecting(root, field, fragment)

    assert any(p.path.endswith("bad.yaml") for p in error.problems)
    assert Lesson.objects.count() == 0
    assert Quest.objects.count() == 0


def test_missing_field_is_named(tmp_path):
    lesson = lesson_file("bad")
    del lesson["title"]
    root = write_content(tmp_path, [lesson])

    _load_expecting(root, "title", "This field is required")


def test_duplicate_slug_across_quests_is_refused(tmp_path):
    write_content(tmp_path, [lesson_file("same")], quest_slug="one")
    write_content(tmp_path, [lesson_file("same")], quest_slug="two")

    _load_expecting(tmp_path, "slug", "duplicate lesson slug 'same'")
    assert Lesson.objects.count() == 0


def test_slug_must_match_file_name(tmp_path):
    root = write_content(tmp_path, [lesson_file("right")])
    (root / "demo" / "lessons" / "right.yaml").write_text(yaml.safe_dump(lesson_file("wrong")))

    _load_expecting(root, "slug", "must match its file name")


def test_invalid_yaml_is_reported_with_its_file(tmp_path):
    root = write_content(tmp_path, [lesson_file("broken")])
    (root / "demo" / "lessons" / "broken.yaml").write_text("title: [unclosed\n")

    error = _load_expecting(root, "broken.yaml", "not valid YAML")
    assert len(error.problems) == 1


def test_a_bad_file_leaves_an_earlier_load_untouched(content):
    load_curriculum(root=content)
    write_content(
        content,
        [
            lesson_file("first", title="Changed"),
            lesson_file("second", minutes=-1),
            lesson_file("third"),
        ],
    )

    with pytest.raises(CurriculumError):
        load_curriculum(root=content)

    assert Lesson.objects.get(slug="first").title == "Title of first"


def test_command_fails_with_every_problem_listed(tmp_path):
    root = write_content(tmp_path, [lesson_file("a", minutes=0), lesson_file("b", xp=-5)])

    with pytest.raises(CommandError) as caught:
        call_command("load_curriculum", str(root))

    message = str(caught.value)
    assert "nothing was changed" in message
    assert "a.yaml: minutes" in message
    assert "b.yaml: xp" in message


def test_load_export_load_is_a_fixed_point(content, tmp_path):
    load_curriculum(root=content)
    exported = tmp_path / "exported"

    export_curriculum(root=exported)
    report = load_curriculum(root=exported)

    assert not report.changed
    again = tmp_path / "again"
    export_curriculum(root=again)
    first_files = {p.relative_to(exported): p.read_text() for p in exported.rglob("*.yaml")}
    second_files = {p.relative_to(again): p.read_text() for p in again.rglob("*.yaml")}
    assert first_files == second_files
    assert len(first_files) == 4  # quest.yaml + 3 lessons


def test_export_command_writes_files_the_loader_reads(content, tmp_path):
    load_curriculum(root=content)
    out = tmp_path / "out"

    call_command("export_curriculum", str(out))

    quests = read_curriculum(out)
    assert [q.slug for q in quests] == ["demo"]
    assert [x.slug for x in quests[0].lessons] == ["first", "second", "third"]
    assert quests[0].lessons[0].blocks[1]["rows"] == [["GPT-2", "768"], ["BERT-base", "768"]]


def test_the_demo_curriculum_loads_94_published_lessons():
    root = Path(__file__).resolve().parents[2] / "content"

    report = load_curriculum(root=root)

    quest = Quest.objects.get(slug="transformers")
    assert quest.lessons.filter(published=True).count() == 94
    assert report.get("lessons", "created") == 94
    d_model = Lesson.objects.get(slug="embedding-dimension")
    assert d_model.title == "Embedding dimension (d_model)"
    assert d_model.estimated_minutes == 10
    assert set(d_model.tags.values_list("slug", flat=True)) == {"d-model", "scaling", "capacity"}
    table = d_model.blocks.get(kind="table")
    assert ["GPT-3", "12,288", "96", "175B"] in table.rows
    assert d_model.blocks.filter(kind="code").exists()
    assert Link.objects.filter(lesson=d_model).exists()
    assert report.get("exercises", "created") == 6
    assert load_curriculum(root=root).changed is False


def test_the_demo_d_model_lesson_reads_with_its_exercise(api_client, demo_slice):
    load_curriculum(root=demo_slice)

    body = api_client.get("/api/v1/lessons/embedding-dimension/").json()

    assert body["exercise"]["title"] == "Read d_model from three config.json files"
    assert body["exercise"]["kind"] == "table"
    assert [b["kind"] for b in body["blocks"]].count("table") == 1
    assert body["previous"] is not None
    assert body["next"] is not None


def test_the_demo_exercise_hints_that_gpt2s_missing_n_inner_is_four_times_n_embd(
    api_client, demo_slice
):
    load_curriculum(root=demo_slice)
    lesson = api_client.get("/api/v1/lessons/embedding-dimension/").json()

    exercise = api_client.get(f"/api/v1/exercises/{lesson['exercise']['id']}/").json()

    hints = {column["name"]: column["hint"] for column in exercise["columns"]}
    assert "n_inner" in hints["intermediate_size"]
    assert "n_embd" in hints["intermediate_size"]


EXERCISE = {
    "title": "Tabulate three models",
    "prompt": "Pull the config.json of three open-weight models.",
    "columns": [
        {"name": "d_model", "field": "d_model", "synonyms": ["hidden_size"], "tolerance": 0},
        {
            "name": "n_layers",
            "field": "n_layers",
            "synonyms": ["num_hidden_layers"],
            "tolerance": 0,
        },
    ],
    "rows_required": 3,
    "pass_mark": 0.8,
    "xp": 60,
}


def test_a_lesson_file_with_an_exercise_loads_it_once(tmp_path):
    from exercises.selectors import exercise_summaries_for_lesson

    root = write_content(tmp_path, [lesson_file("with-exercise", exercise=EXERCISE)])

    first = load_curriculum(root=root)
    second = load_curriculum(root=root)

    lesson = Lesson.objects.get(slug="with-exercise")
    summaries = exercise_summaries_for_lesson(lesson_id=lesson.id)
    assert [s["title"] for s in summaries] == ["Tabulate three models"]
    assert first.get("exercises", "created") == 1
    assert second.get("exercises", "unchanged") == 1
    assert not second.changed


def test_a_bad_exercise_names_the_file_and_field_and_loads_nothing(tmp_path):
    root = write_content(
        tmp_path, [lesson_file("fine"), lesson_file("bad", exercise={**EXERCISE, "xp": -1})]
    )

    error = _load_expecting(root, "exercise.xp", "whole number")

    assert error.problems[0].path.endswith("bad.yaml")
    assert Lesson.objects.count() == 0


def test_exercises_survive_the_round_trip(tmp_path):
    root = write_content(tmp_path / "src", [lesson_file("with-exercise", exercise=EXERCISE)])
    load_curriculum(root=root)
    exported = tmp_path / "exported"

    export_curriculum(root=exported)
    report = load_curriculum(root=exported)

    assert not report.changed
    data = yaml.safe_load((exported / "demo" / "lessons" / "with-exercise.yaml").read_text())
    assert data["exercise"]["title"] == "Tabulate three models"
    assert [c["name"] for c in data["exercise"]["columns"]] == ["d_model", "n_layers"]


def test_exporting_the_loaded_demo_curriculum_gives_back_its_files(tmp_path):
    root = Path(__file__).resolve().parents[2] / "content"
    load_curriculum(root=root)

    export_curriculum(root=tmp_path)

    original = {p.relative_to(root): p.read_text() for p in root.rglob("*.yaml")}
    exported = {p.relative_to(tmp_path): p.read_text() for p in tmp_path.rglob("*.yaml")}
    assert exported.keys() == original.keys()
    assert [path for path in original if exported[path] != original[path]] == []


def test_an_unchanged_admin_save_of_every_lesson_exports_the_same_files(
    client, editor, demo_slice, tmp_path
):
    # given the curriculum loaded and exported once
    load_curriculum(root=demo_slice)
    first = tmp_path / "first"
    export_curriculum(root=first)

    # when an editor opens each lesson and saves it without a change (lines posted as "\r\n")
    for lesson in Lesson.objects.all():
        url = reverse("admin:lessons_lesson_change", args=[lesson.id])
        response = client.post(url, posted_unchanged(client.get(url)))
        assert response.status_code == 302, response.context["error_summary"]

    # then loading that export and exporting again gives the same files, byte for byte
    second = tmp_path / "second"
    export_curriculum(root=second)
    load_curriculum(root=second)
    third = tmp_path / "third"
    export_curriculum(root=third)
    files = {p.relative_to(first): p.read_text() for p in first.rglob("*.yaml")}
    for root in (second, third):
        assert {p.relative_to(root): p.read_text() for p in root.rglob("*.yaml")} == files
    assert "\r" not in "".join(files.values())
