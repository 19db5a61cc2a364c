"""The curriculum as files: reading and validating `content/`, and writing it back.

Layout, one folder per quest:

    content/<quest-slug>/quest.yaml              slug, title, description, lessons: [slug, ...]
    content/<quest-slug>/lessons/<slug>.yaml     one lesson: metadata, blocks, links, exercise

The order of `lessons:` in quest.yaml is the order of the quest. Nothing here touches the
database: `curriculum.services.load_curriculum` writes what `read_curriculum` returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from learning_platform import plain_data
from learning_platform.slugs import SLUG_RE
from lessons.blocks import KINDS, block_errors, link_url_error

QUEST_KEYS = {"slug", "title", "description", "lessons"}
LESSON_KEYS = {"slug", "title", "summary", "minutes", "xp", "tags", "published", "blocks", "links"}
OPTIONAL_LESSON_KEYS = {"exercise"}
BLOCK_KEYS = {
    "prose": {"kind", "markdown"},
    "callout": {"kind", "markdown", "style"},
    "table": {"kind", "caption", "columns", "rows"},
    "code": {"kind", "title", "language", "source"},
}


class CurriculumError(Exception):
    """Bad content. Carries every problem found, each naming its file and field."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class Problem:
    path: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.field}: {self.message}"


@dataclass
class LessonSpec:
    path: str
    slug: str
    title: str
    summary: str
    minutes: int
    xp: int
    tags: list[str]
    published: bool
    blocks: list[dict[str, Any]]
    links: list[dict[str, str]]
    exercise: dict[str, Any] | None = None


@dataclass
class QuestSpec:
    path: str
    slug: str
    title: str
    description: str
    lessons: list[LessonSpec] = field(default_factory=list)


def read_curriculum(root: Path) -> list[QuestSpec]:
    """Read and validate every quest under `root`; raise CurriculumError listing all problems."""
    root = Path(root)
    problems: list[Problem] = []
    if not root.is_dir():
        raise CurriculumError([Problem(str(root), "-", "not a directory")])
    quest_files = sorted(root.glob("*/quest.yaml"))
    if not quest_files:
        raise CurriculumError([Problem(str(root), "-", "no <quest>/quest.yaml found")])

    quests: list[QuestSpec] = []
    seen_lessons: dict[str, str] = {}
    seen_quests: dict[str, str] = {}
    for quest_file in quest_files:
        quest = _read_quest(quest_file, problems)
        if quest is None:
            continue
        if quest.slug in seen_quests:
            problems.append(
                Problem(
                    quest.path, "slug", f"duplicate quest slug, also in {seen_quests[quest.slug]}"
                )
            )
        seen_quests[quest.slug] = quest.path
        for lesson in quest.lessons:
            if lesson.slug in seen_lessons:
                problems.append(
                    Problem(
                        lesson.path,
                        "slug",
                        f"duplicate lesson slug {lesson.slug!r}, also in {seen_lessons[lesson.slug]}",
                    )
                )
            seen_lessons[lesson.slug] = lesson.path
        quests.append(quest)
    if problems:
        raise CurriculumError(problems)
    return quests


def _load_yaml(path: Path, problems: list[Problem]) -> dict[str, Any] | None:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem(str(path), "-", f"cannot read: {exc}"))
        return None
    except yaml.YAMLError as exc:
        problems.append(Problem(str(path), "-", f"not valid YAML: {exc}"))
        return None
    if not isinstance(data, dict):
        problems.append(Problem(str(path), "-", "expected a mapping of fields"))
        return None
    return data


def _read_quest(path: Path, problems: list[Problem]) -> QuestSpec | None:
    data = _load_yaml(path, problems)
    if data is None:
        return None
    where = str(path)
    _check_keys(data, required=QUEST_KEYS, optional=set(), where=where, problems=problems)
    report = _reporter(where, problems)
    slug = plain_data.slug(data, "slug", report)
    if slug and slug != path.parent.name:
        problems.append(
            Problem(where, "slug", f"{slug!r} must match its folder {path.parent.name!r}")
        )
    title = plain_data.text(data, "title", report, max_length=200)
    description = plain_data.text(data, "description", report, allow_empty=True)
    order = data.get("lessons")
    if not isinstance(order, list) or not all(isinstance(s, str) for s in order):
        problems.append(Problem(where, "lessons", "must be a list of lesson slugs"))
        order = []
    quest = QuestSpec(path=where, slug=slug or "", title=title or "", description=description or "")
    lesson_dir = path.parent / "lessons"
    for lesson_slug in order:
        lesson_file = lesson_dir / f"{lesson_slug}.yaml"
        if not lesson_file.is_file():
            problems.append(Problem(where, "lessons", f"{lesson_slug!r} has no file {lesson_file}"))
            continue
        lesson = _read_lesson(lesson_file, problems)
        if lesson is not None:
            quest.lessons.append(lesson)
    listed = set(order)
    for lesson_file in sorted(lesson_dir.glob("*.yaml")):
        if lesson_file.stem not in listed:
            problems.append(
                Problem(str(lesson_file), "slug", "not listed in its quest.yaml `lessons`")
            )
    return quest


def _read_lesson(path: Path, problems: list[Problem]) -> LessonSpec | None:
    data = _load_yaml(path, problems)
    if data is None:
        return None
    where = str(path)
    before = len(problems)
    _check_keys(
        data, required=LESSON_KEYS, optional=OPTIONAL_LESSON_KEYS, where=where, problems=problems
    )
    report = _reporter(where, problems)
    slug = plain_data.slug(data, "slug", report)
    if slug and slug != path.stem:
        problems.append(Problem(where, "slug", f"{slug!r} must match its file name {path.stem!r}"))
    title = plain_data.text(data, "title", report, max_length=200)
    summary = plain_data.text(data, "summary", report, allow_empty=True)
    minutes = plain_data.integer(data, "minutes", report, low=1, high=600)
    xp = plain_data.integer(data, "xp", report, low=0, high=10_000)
    published = data.get("published")
    if "published" in data and not isinstance(published, bool):
        problems.append(Problem(where, "published", "must be true or false"))
    tags = data.get("tags")
    if "tags" in data and (
        not isinstance(tags, list) or not all(isinstance(t, str) and SLUG_RE.match(t) for t in tags)
    ):
        problems.append(Problem(where, "tags", "must be a list of lowercase-hyphenated tags"))
    blocks = _blocks(data.get("blocks"), where, problems) if "blocks" in data else []
    links = _links(data.get("links"), where, problems) if "links" in data else []
    exercise = data.get("exercise")
    if exercise is not None and not isinstance(exercise, dict):
        problems.append(Problem(where, "exercise", "must be a mapping"))
    # A value is None or of another type only where a problem was reported.
    if (
        len(problems) > before
        or slug is None
        or title is None
        or summary is None
        or minutes is None
        or xp is None
        or not isinstance(tags, list)
        or not isinstance(published, bool)
    ):
        return None
    return LessonSpec(
        path=where,
        slug=slug,
        title=title,
        summary=summary,
        minutes=minutes,
        xp=xp,
        tags=list(dict.fromkeys(tags)),
        published=published,
        blocks=blocks,
        links=links,
        exercise=exercise,
    )


def _check_keys(data, *, required, optional, where, problems) -> None:
    for key in sorted(required - data.keys()):
        problems.append(Problem(where, key, "missing field"))
    for key in sorted(data.keys() - required - optional):
        problems.append(Problem(where, str(key), "unknown field"))


def _reporter(where: str, problems: list[Problem]) -> plain_data.Report:
    return lambda key, message: problems.append(Problem(where, key, message))


def _blocks(raw, where, problems) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        problems.append(Problem(where, "blocks", "must be a list"))
        return []
    blocks = []
    for number, block in enumerate(raw, start=1):
        name = f"blocks[{number}]"
        if not isinstance(block, dict):
            problems.append(Problem(where, name, "must be a mapping with a `kind`"))
            continue
        kind = block.get("kind")
        if kind not in KINDS:
            problems.append(
                Problem(
                    where,
                    f"{name}.kind",
                    f"unknown block kind {kind!r}; expected one of {', '.join(KINDS)}",
                )
            )
            continue
        allowed = BLOCK_KEYS[kind]
        unknown = sorted(set(block) - allowed)
        if unknown:
            problems.append(
                Problem(where, f"{name}.{unknown[0]}", f"not a field of a {kind} block")
            )
            continue
        for field_name, message in block_errors(kind, block).items():
            problems.append(Problem(where, f"{name}.{field_name}", message))
        if kind == "table":
            block = {
                **block,
                "rows": [[str(cell) for cell in row] for row in block.get("rows", [])],
            }
        blocks.append(block)
    return blocks


def _links(raw, where, problems) -> list[dict[str, str]]:
    if not isinstance(raw, list):
        problems.append(Problem(where, "links", "must be a list"))
        return []
    links = []
    for number, link in enumerate(raw, start=1):
        name = f"links[{number}]"
        if not isinstance(link, dict) or set(link) != {"title", "url"}:
            problems.append(Problem(where, name, "must have exactly `title` and `url`"))
            continue
        title, url = link["title"], link["url"]
        if not isinstance(title, str) or not title.strip():
            problems.append(Problem(where, f"{name}.title", "must be non-empty text"))
        url_error = link_url_error(url)
        if url_error:
            problems.append(Problem(where, f"{name}.url", url_error))
            continue
        links.append({"title": title, "url": url})
    return links


# --- Writing ---------------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """The files' house style: lists indented under their key, short lists of plain values
    inline (up to about 100 characters) (`tags: [a, b]`, table rows), multi-line text as `|` blocks, no line wrapping.
    Exporting what was loaded gives back the same bytes, so an export after admin edits makes
    a small, reviewable diff."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


def _represent_str(dumper: yaml.SafeDumper, value: str):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_list(dumper: yaml.SafeDumper, values: list):
    inline = (
        bool(values)
        and all(
            isinstance(v, int | float | bool) or (isinstance(v, str) and "\n" not in v)
            for v in values
        )
        and sum(len(str(v)) + 2 for v in values) <= 100
    )
    return dumper.represent_sequence("tag:yaml.org,2002:seq", values, flow_style=inline)


_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(list, _represent_list)


def dump_yaml(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1_000_000)


def write_quest(root: Path, quest: dict[str, Any], lessons: list[dict[str, Any]]) -> list[Path]:
    """Write one quest folder (quest.yaml + a file per lesson); return the files written."""
    folder = Path(root) / quest["slug"]
    lesson_dir = folder / "lessons"
    lesson_dir.mkdir(parents=True, exist_ok=True)
    written = []
    quest_file = folder / "quest.yaml"
    quest_file.write_text(
        dump_yaml({**quest, "lessons": [lesson["slug"] for lesson in lessons]}), encoding="utf-8"
    )
    written.append(quest_file)
    for lesson in lessons:
        path = lesson_dir / f"{lesson['slug']}.yaml"
        path.write_text(dump_yaml(lesson), encoding="utf-8")
        written.append(path)
    return written
