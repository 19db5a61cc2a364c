"""The LTI tool's reads: what a teacher may pick when linking content into a course."""

from __future__ import annotations

from typing import TypedDict

from lessons import selectors as lesson_selectors


class Choice(TypedDict):
    kind: str  # "quest" or "lesson"
    slug: str
    title: str


def content_choices() -> list[Choice]:
    """Every quest, then every published lesson under its quest's order (2 queries)."""
    choices: list[Choice] = [
        Choice(kind="quest", slug=quest.slug, title=quest.title)
        for quest in lesson_selectors.quest_list()
    ]
    lessons = lesson_selectors.published_lessons().order_by("quest__title", "position", "id")
    choices += [
        Choice(kind="lesson", slug=lesson.slug, title=lesson.title)
        for lesson in lessons.only("slug", "title")
    ]
    return choices


def find_choice(*, kind: str, slug: str) -> Choice | None:
    for choice in content_choices():
        if choice["kind"] == kind and choice["slug"] == slug:
            return choice
    return None
