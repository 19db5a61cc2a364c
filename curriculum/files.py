"""The curriculum as files: reading and validating `content/`, and writing it back.

Layout, one folder per quest:

    content/<quest-slug>/quest.yaml              slug, title, description, lessons: [slug, ...]
    content/<quest-slug>/lessons/<slug>.yaml     one lesson: metadata, blocks, links, exercise

The order of `lessons:` in quest.yaml is the order of the quest. A lesson's optional `unit:`
names the unit (section) it is in, by title; units come in the order of their first lesson. Nothing here touches the
database: `curriculum.services.load_curriculum` writes what `read_curriculum` returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import yaml
from rest_framework import serializers

from exercises.specs import ExerciseSpecSerializer
from learning_platform.api.fields import StrictBooleanField, StrictCharField
from learning_platform.plain_data import (
    ClosedSerializer,
    Text,
    flat_errors,
    slug_field,
    whole_number,
)
from lessons.blocks import KIND_FIELDS, KINDS, block_errors, link_url_error
from lessons.checks import clean_check, clean_text


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
    unit: str | None = None


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
    # A quest's slug must be its folder's name (checked in _read_quest): those cannot repeat.
    seen_lessons: dict[str, str] = {}
    for quest_file in quest_files:
        quest = _read_quest(quest_file, problems)
        if quest is None:
            continue
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


# safe_load's loader, in C (libyaml) where PyYAML was built with it: the pure-Python one was
# half of a curriculum load's time.
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load_yaml(path: Path, problems: list[Problem]) -> dict[str, Any] | None:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_SafeLoader)  # noqa: S506
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


class QuestFileSerializer(ClosedSerializer):
    slug = slug_field()
    title = Text(max_length=200)
    description = Text(allow_blank=True, allow_null=True)
    lessons = serializers.ListField(child=StrictCharField())


class BlockField(serializers.Field[dict[str, Any], dict[str, Any], dict[str, Any], Any]):
    """A content block: its fields depend on its `kind` (lessons.blocks has the rules)."""

    def to_internal_value(self, block: Any) -> dict[str, Any]:
        if not isinstance(block, dict):
            raise serializers.ValidationError("must be a mapping with a `kind`")
        kind = block.get("kind")
        if kind not in KINDS:
            message = f"unknown block kind {kind!r}; expected one of {', '.join(KINDS)}"
            raise serializers.ValidationError({"kind": message})
        if kind == "check":
            return self._check_block(block)
        unknown = sorted(set(block) - {"kind", *KIND_FIELDS[kind]})
        if unknown:
            raise serializers.ValidationError({unknown[0]: f"not a field of a {kind} block"})
        errors = block_errors(kind, block)
        if errors:
            raise serializers.ValidationError(errors)
        if kind == "table":
            return {**block, "rows": [[str(cell) for cell in row] for row in block.get("rows", [])]}
        return block

    @staticmethod
    def _check_block(block: dict[str, Any]) -> dict[str, Any]:
        """A check as files write it (its prompt beside its fields) as blocks store it."""
        spec = {name: value for name, value in block.items() if name not in ("kind", "prompt")}
        prompt = block.get("prompt")
        errors = block_errors(
            "check", {"markdown": prompt if isinstance(prompt, str) else "", "spec": spec}
        )
        if errors:
            raise serializers.ValidationError(
                {
                    name.removeprefix("spec.").replace("markdown", "prompt"): problem
                    for name, problem in errors.items()
                }
            )
        return {"kind": "check", "markdown": clean_text(prompt), "spec": clean_check(spec)}


class LinkSerializer(ClosedSerializer):
    title = Text()
    url = StrictCharField(trim_whitespace=False)

    def validate_url(self, url: str) -> str:
        error = link_url_error(url)
        if error:
            raise serializers.ValidationError(error)
        return url


class LessonFileSerializer(ClosedSerializer):
    slug = slug_field()
    title = Text(max_length=200)
    unit = Text(max_length=200, required=False, allow_null=True)
    summary = Text(allow_blank=True, allow_null=True)
    minutes = whole_number(low=1, high=600)
    xp = whole_number(low=0, high=10_000)
    tags = serializers.ListField(child=slug_field())
    published = StrictBooleanField(error_messages={"invalid": "must be true or false"})
    blocks = serializers.ListField(child=BlockField())
    links = LinkSerializer(many=True)
    exercise = ExerciseSpecSerializer(required=False, allow_null=True)

    def validate_blocks(self, blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        keys = [block["spec"]["key"] for block in blocks if block["kind"] == "check"]
        repeated = sorted({key for key in keys if keys.count(key) > 1})
        if repeated:
            raise serializers.ValidationError(f"check key {repeated[0]!r} is used twice")
        return blocks


def _check(
    serializer_class: type[ClosedSerializer],
    data: dict[str, Any],
    where: str,
    problems: list[Problem],
) -> dict[str, Any] | None:
    """The file's validated data, or None with its problems reported."""
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        # DRF's stubs type validated_data as Any; a Serializer's is a dict once valid.
        return cast(dict[str, Any], serializer.validated_data)
    problems += [Problem(where, name, message) for name, message in flat_errors(serializer.errors)]
    return None


def _read_quest(path: Path, problems: list[Problem]) -> QuestSpec | None:
    data = _load_yaml(path, problems)
    if data is None:
        return None
    where = str(path)
    valid = _check(QuestFileSerializer, data, where, problems)
    if valid and valid["slug"] != path.parent.name:
        problems.append(
            Problem(where, "slug", f"{valid['slug']!r} must match its folder {path.parent.name!r}")
        )
    listed_slugs = data.get("lessons")
    order = (
        [s for s in listed_slugs if isinstance(s, str)] if isinstance(listed_slugs, list) else []
    )
    quest = QuestSpec(
        path=where,
        slug=str(data.get("slug", "")),
        title=str(data.get("title", "")),
        description=str(data.get("description") or ""),
    )
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
    valid = _check(LessonFileSerializer, data, where, problems)
    if valid is None:
        return None
    if valid["slug"] != path.stem:
        message = f"{valid['slug']!r} must match its file name {path.stem!r}"
        problems.append(Problem(where, "slug", message))
        return None
    return LessonSpec(
        **{
            **valid,
            "path": where,
            "summary": valid["summary"] or "",
            "tags": list(dict.fromkeys(valid["tags"])),
            # Kept as written: the exercises app cleans it again when it loads it.
            "exercise": data.get("exercise"),
        }
    )


# --- Writing ---------------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """The files' house style: lists indented under their key, short lists of plain values
    inline (up to about 100 characters) (`tags: [a, b]`, table rows), multi-line text as `|` blocks, no line wrapping.
    Exporting what was loaded gives back the same bytes, so an export after admin edits makes
    a small, reviewable diff."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_list(dumper: yaml.SafeDumper, values: list[Any]) -> yaml.SequenceNode:
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
