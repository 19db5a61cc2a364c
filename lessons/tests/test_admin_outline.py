"""The quest outline page in the admin, through its pages as an editor's browser uses them."""

import re

import pytest
from django.urls import reverse

from lessons.models import Lesson, Unit
from lessons.tests.factories import LessonFactory, QuestFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def quest():
    return QuestFactory(slug="q", title="The quest")


@pytest.fixture
def abc(quest):
    return [LessonFactory(quest=quest, slug=slug, position=n) for n, slug in enumerate("abc", 1)]


def _order_url(quest) -> str:
    return reverse("admin:lessons_quest_outline_order", args=[quest.id])


def _opened(*lessons) -> list[dict]:
    return [{"id": lesson.id, "version": lesson.version} for lesson in lessons]


def test_the_outline_page_lists_units_and_lessons_in_order_with_tools(client, editor, quest, abc):
    unit = Unit.objects.create(quest=quest, title="Tokens", position=1)
    Lesson.objects.filter(pk=abc[2].pk).update(unit=unit)

    response = client.get(reverse("admin:lessons_quest_outline", args=[quest.id]))

    assert response.status_code == 200
    page = response.content.decode()
    assert page.index("Not in a unit") < page.index(abc[0].title) < page.index("Tokens")
    assert page.index("Tokens") < page.index(abc[2].title)
    assert "lessons/admin/outline.js" in page
    assert f"?quest={quest.id}&amp;unit={unit.id}&amp;position=3" in page  # insert before c
    assert f'data-version="{abc[0].version}"' in page


def test_the_quest_page_and_list_link_to_the_outline(client, editor, quest):
    outline_url = reverse("admin:lessons_quest_outline", args=[quest.id])

    change = client.get(reverse("admin:lessons_quest_change", args=[quest.id]))
    listing = client.get(reverse("admin:lessons_quest_changelist"))

    assert outline_url in change.content.decode()
    assert outline_url in listing.content.decode()


def test_saving_an_order_renumbers_and_answers_the_new_versions(client, editor, quest, abc):
    a, b, c = abc
    unit = Unit.objects.create(quest=quest, title="Tokens")

    response = client.post(
        _order_url(quest),
        {"lessons": _opened(c), "units": [{"id": unit.id, "lessons": _opened(a, b)}]},
        content_type="application/json",
    )

    assert response.status_code == 200
    c.refresh_from_db()
    assert response.json()["versions"][str(c.id)] == c.version == 2
    assert list(Lesson.objects.filter(quest=quest).values_list("slug", "position")) == [
        ("c", 1),
        ("a", 2),
        ("b", 3),
    ]


def test_an_order_from_a_stale_page_answers_409_and_changes_nothing(client, editor, quest, abc):
    a, b, c = abc
    Lesson.objects.filter(pk=a.pk).update(version=3)

    response = client.post(
        _order_url(quest),
        {"lessons": _opened(c, b, a), "units": []},
        content_type="application/json",
    )

    assert response.status_code == 409
    assert response.json()["type"] == "stale_outline"
    assert "since you opened the outline" in response.json()["detail"]
    assert Lesson.objects.get(pk=c.pk).position == 3


def test_a_malformed_order_answers_400(client, editor, quest, abc):
    response = client.post(
        _order_url(quest), {"lessons": [{"id": "x"}]}, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"


def test_an_order_for_no_quest_answers_404(client, editor):
    response = client.post(
        reverse("admin:lessons_quest_outline_order", args=[999_999]),
        {"lessons": [], "units": []},
        content_type="application/json",
    )

    assert response.status_code == 404


def test_saving_an_order_needs_the_csrf_token(editor, quest, abc):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(editor)

    response = browser.post(
        _order_url(quest), {"lessons": _opened(*abc), "units": []}, content_type="application/json"
    )

    assert response.status_code == 403


def test_duplicate_and_move_through_the_page(client, editor, quest, abc):
    a, b, _ = abc
    other = QuestFactory(slug="other")

    duplicated = client.post(
        reverse("admin:lessons_quest_outline_duplicate", args=[quest.id, a.id]), follow=True
    )
    stale = client.post(
        reverse("admin:lessons_quest_outline_move", args=[quest.id, b.id]),
        {"quest": other.id, "version": b.version},  # the copy moved b down: a new version
        follow=True,
    )
    b.refresh_from_db()
    moved = client.post(
        reverse("admin:lessons_quest_outline_move", args=[quest.id, b.id]),
        {"quest": other.id, "version": b.version},
        follow=True,
    )

    assert "a-copy" in duplicated.content.decode()
    assert Lesson.objects.get(slug="a-copy").quest == quest
    assert "Nothing changed" in stale.content.decode()
    assert "Moved" in moved.content.decode()
    assert Lesson.objects.get(pk=b.pk).quest == other


def test_add_unit_and_a_lesson_inserted_from_the_outline_takes_its_place(
    client, editor, quest, abc
):
    client.post(reverse("admin:lessons_quest_outline_add_unit", args=[quest.id]), {"title": "New"})
    unit = Unit.objects.get(quest=quest, title="New")
    add = reverse("admin:lessons_lesson_add")

    form = client.get(f"{add}?quest={quest.id}&unit={unit.id}&position=2")

    initial = form.context["adminform"].form.initial
    assert (str(initial["quest"]), str(initial["unit"]), initial["position"]) == (
        str(quest.id),
        str(unit.id),
        "2",
    )


def test_a_unit_of_another_quest_is_refused_on_the_lesson(quest, abc):
    from django.core.exceptions import ValidationError

    elsewhere = Unit.objects.create(quest=QuestFactory(slug="other"), title="Elsewhere")
    abc[0].unit = elsewhere

    with pytest.raises(ValidationError, match="own quest"):
        abc[0].full_clean()


def test_a_lessons_page_offers_the_units_of_its_own_quest_only(client, editor, quest, abc):
    ours = Unit.objects.create(quest=quest, title="Tokens")
    theirs = Unit.objects.create(quest=QuestFactory(slug="other"), title="Elsewhere")

    change = client.get(reverse("admin:lessons_lesson_change", args=[abc[0].id])).content.decode()
    add = client.get(reverse("admin:lessons_lesson_add") + f"?quest={quest.id}").content.decode()

    for page in (change, add):
        units = re.search(r'<select name="unit".*?</select>', page, re.S)
        assert units is not None
        assert f'<option value="{ours.id}">{ours.title}' in units.group(0)
        assert theirs.title not in units.group(0)
