"""The quest outline's writes (lessons.outline_services) and the numbers and units learners
get from the order (lessons.selectors)."""

import pytest

from lessons import outline_services as outline
from lessons.models import Lesson, Unit
from lessons.outline_selectors import editor_outline
from lessons.selectors import lesson_place, quest_outline
from lessons.tests.factories import LessonFactory, LinkFactory, ProseBlockFactory, QuestFactory

pytestmark = pytest.mark.django_db


def _opened(*lessons: Lesson) -> list[outline.OpenedLesson]:
    return [outline.OpenedLesson(id=lesson.id, version=lesson.version) for lesson in lessons]


def _order(quest) -> list[tuple[str, str | None, int]]:
    rows = Lesson.objects.filter(quest=quest).order_by("position", "id")
    return [
        (lesson.slug, lesson.unit.title if lesson.unit else None, lesson.position)
        for lesson in rows
    ]


@pytest.fixture
def quest():
    return QuestFactory(slug="q")


@pytest.fixture
def abc(quest):
    return [LessonFactory(quest=quest, slug=slug, position=n) for n, slug in enumerate("abc", 1)]


def test_save_order_numbers_lessons_in_units_and_records_history(quest, abc):
    a, b, c = abc
    tokens = Unit.objects.create(quest=quest, title="Tokens", position=1)
    attention = Unit.objects.create(quest=quest, title="Attention", position=2)

    versions = outline.save_order(
        quest_id=quest.id,
        lessons=_opened(b),
        units=[
            outline.UnitOrder(id=attention.id, lessons=_opened(c)),
            outline.UnitOrder(id=tokens.id, lessons=_opened(a)),
        ],
    )

    assert _order(quest) == [("b", None, 1), ("c", "Attention", 2), ("a", "Tokens", 3)]
    assert [u.title for u in Unit.objects.filter(quest=quest).order_by("position")] == [
        "Attention",
        "Tokens",
    ]
    a.refresh_from_db()
    assert versions[a.id] == a.version == 2
    assert a.history.first().history_change_reason == outline.REORDERED


def test_save_order_leaves_lessons_whose_place_is_unchanged_alone(quest, abc):
    a, b, c = abc

    outline.save_order(quest_id=quest.id, lessons=_opened(a, c, b), units=[])

    a.refresh_from_db()
    assert a.version == 1
    assert a.history.count() == 1


def test_an_order_based_on_a_stale_version_is_refused_and_changes_nothing(quest, abc):
    a, b, c = abc
    Lesson.objects.filter(pk=b.pk).update(version=5)

    with pytest.raises(outline.StaleOutline, match="since you opened the outline"):
        outline.save_order(quest_id=quest.id, lessons=_opened(c, b, a), units=[])

    assert [slug for slug, _, _ in _order(quest)] == ["a", "b", "c"]


def test_an_order_missing_a_lesson_added_since_is_refused(quest, abc):
    a, b, c = abc
    LessonFactory(quest=quest, slug="d", position=4)

    with pytest.raises(outline.StaleOutline, match="added, moved or deleted"):
        outline.save_order(quest_id=quest.id, lessons=_opened(c, b, a), units=[])


def test_an_order_naming_a_lesson_twice_is_bad_input(quest, abc):
    a, b, c = abc

    with pytest.raises(outline.BadOutline):
        outline.save_order(quest_id=quest.id, lessons=_opened(a, a, b, c), units=[])


def test_a_new_lesson_at_a_taken_position_goes_before_its_holder(quest, abc):
    new = LessonFactory(quest=quest, slug="new", position=2)

    outline.place_new_lesson(lesson=new)

    assert _order(quest) == [("a", None, 1), ("new", None, 2), ("b", None, 3), ("c", None, 4)]


def test_duplicate_copies_blocks_links_tags_unpublished_right_after(quest, abc):
    a, _, _ = abc
    a.tags.set([])
    ProseBlockFactory(lesson=a, position=1, markdown="Hello.\n")
    LinkFactory(lesson=a, title="Paper", url="https://example.com/")
    LessonFactory(quest=quest, slug="a-copy", position=9)

    copy = outline.duplicate_lesson(lesson_id=a.id)

    assert copy.slug == "a-copy-2"
    assert copy.title.endswith("(copy)")
    assert not copy.published
    assert [b.markdown for b in copy.blocks.all()] == ["Hello.\n"]
    assert [link.title for link in copy.links.all()] == ["Paper"]
    assert [slug for slug, _, _ in _order(quest)][:3] == ["a", "a-copy-2", "b"]
    assert a.blocks.count() == 1


def test_move_puts_the_lesson_at_the_end_of_the_other_quest_in_no_unit(quest, abc):
    a, _, _ = abc
    a.unit = Unit.objects.create(quest=quest, title="Tokens")
    a.save()
    other = QuestFactory(slug="other")
    LessonFactory(quest=other, slug="x", position=7)

    outline.move_lesson(lesson_id=a.id, version=a.version, quest_id=other.id)

    assert _order(other) == [("x", None, 7), ("a", None, 8)]


def test_move_from_a_stale_page_is_refused(quest, abc):
    a, _, _ = abc
    other = QuestFactory(slug="other")

    with pytest.raises(outline.StaleOutline):
        outline.move_lesson(lesson_id=a.id, version=a.version + 1, quest_id=other.id)


def test_learners_get_numbers_from_the_order_and_units_as_runs(quest, abc):
    _, b, c = abc
    unit = Unit.objects.create(quest=quest, title="Tokens")
    Lesson.objects.filter(pk__in=[b.pk, c.pk]).update(unit=unit)
    LessonFactory(quest=quest, slug="draft", position=2, published=False)
    Lesson.objects.filter(pk=c.pk).update(position=2)  # a typed number shared with the draft

    data = quest_outline(quest=quest, user=None)

    assert [(lesson["slug"], lesson["number"]) for lesson in data["lessons"]] == [
        ("a", 1),
        ("b", 2),
        ("c", 3),
    ]
    assert data["units"] == [
        {"title": None, "lessons": ["a"]},
        {"title": "Tokens", "lessons": ["b", "c"]},
    ]
    assert lesson_place(lesson=c, user=None).number == 3


def test_the_editors_outline_lists_empty_units_and_drafts_in_three_queries(
    quest, abc, django_assert_num_queries
):
    Unit.objects.create(quest=quest, title="Empty")
    LessonFactory(quest=quest, slug="draft", published=False)

    with django_assert_num_queries(3):
        found = editor_outline(quest=quest)

    assert [(u.title, [x.slug for x in u.lessons]) for u in found.units] == [
        ("Not in a unit", ["a", "b", "c", "draft"]),
        ("Empty", []),
    ]
