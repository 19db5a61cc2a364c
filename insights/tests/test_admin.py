"""The analytics pages through the admin, as a content editor, a superuser and others."""

import pytest
from django.urls import reverse

from accounts.tests.factories import UserFactory
from insights import selectors
from lessons.tests.factories import LessonFactory

pytestmark = pytest.mark.django_db


def quest_url(quest) -> str:
    return reverse("admin:insights_questanalytics_quest", args=[quest.id])


def lesson_url(lesson) -> str:
    return reverse("admin:insights_questanalytics_lesson", args=[lesson.id])


def test_editor_reads_the_quest_page_with_its_charts(client, editor, quest_figures):
    response = client.get(quest_url(quest_figures["quest"]))

    body = response.content.decode()
    assert response.status_code == 200
    assert body.count('<svg class="insights-chart"') == 3
    assert "Lessons completed per week" in body
    assert "3 · 2 stopped" in body  # lesson 2: completed by 3, the furthest for 2
    assert "<code>d_model</code> (50%)" in body
    assert "first submission" in body  # the definition of time to pass
    assert "too few yet <small>" in body  # a median from 2 learners is not shown
    assert "5 min" not in body


def test_the_median_time_to_pass_shows_from_enough_learners(
    client, editor, quest_figures, monkeypatch
):
    monkeypatch.setattr(selectors, "MIN_LEARNERS_FOR_MEDIAN", 2)

    body = client.get(quest_url(quest_figures["quest"]) + "?refresh=1").content.decode()

    assert "5 min" in body
    assert "too few yet <small>" not in body


def test_drafts_are_neither_counted_nor_numbered(client, editor, quest_figures):
    quest = quest_figures["quest"]
    third = quest_figures["lessons"][2]
    LessonFactory(quest=quest, position=2, title="A draft in between", published=False)

    quest_body = client.get(quest_url(quest) + "?refresh=1").content.decode()
    lesson_body = client.get(lesson_url(third)).content.decode()

    assert "A draft in between" not in quest_body
    assert "the 3 lessons" in quest_body
    assert "<dd>3 of 3</dd>" in lesson_body


def test_a_drafts_analytics_page_says_it_has_no_figures(client, editor, quest_figures):
    draft = LessonFactory(quest=quest_figures["quest"], position=9, published=False)

    response = client.get(lesson_url(draft))

    assert response.status_code == 200
    assert "A draft: learners do not see it yet" in response.content.decode()


def test_editor_reads_a_lesson_page_with_the_hardest_column(client, editor, quest_figures):
    second = quest_figures["lessons"][1]

    response = client.get(lesson_url(second))

    body = response.content.decode()
    assert response.status_code == 200
    assert "Learners get <code>d_model</code> wrong most (50% of its cells wrong)" in body
    assert "50% wrong of 4 cells" in body
    assert "2 learners passed, 50% of them with their first submission" in body
    assert "<td>Typo</td><td>New</td>" in body  # its open reports, kinds and states by label
    assert "Kept from the lesson before" in body
    assert reverse("admin:lessons_lesson_change", args=[second.id]) in body


def test_the_quest_list_links_each_quest_to_its_page(client, editor, quest_figures):
    response = client.get(reverse("admin:insights_questanalytics_changelist"))

    assert quest_url(quest_figures["quest"]) in response.content.decode()


def test_the_lesson_change_form_links_to_its_analytics(client, editor, quest_figures):
    second = quest_figures["lessons"][1]

    response = client.get(reverse("admin:lessons_lesson_change", args=[second.id]))

    assert lesson_url(second) in response.content.decode()


def test_the_quest_page_is_served_from_the_cache_the_second_time(
    client, editor, quest_figures, django_assert_num_queries
):
    url = quest_url(quest_figures["quest"])
    client.get(url)

    # the quest and the user's permissions x2 (the user comes from the cache): no figures
    with django_assert_num_queries(3):
        response = client.get(url)

    assert response.status_code == 200


def test_the_quest_page_computes_in_a_fixed_number_of_queries(
    client, editor, quest_figures, django_assert_num_queries
):
    url = quest_url(quest_figures["quest"])
    client.get(url)  # the session and the user are cached from here on

    with django_assert_num_queries(13):  # the 3 of the page and the 10 of the figures
        client.get(url, {"refresh": "1"})


def test_a_superuser_reads_the_pages_too(client, quest_figures):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    assert client.get(quest_url(quest_figures["quest"])).status_code == 200
    assert client.get(lesson_url(quest_figures["lessons"][0])).status_code == 200


def test_staff_without_the_permission_get_an_admin_403(client, quest_figures):
    client.force_login(UserFactory(is_staff=True))

    response = client.get(quest_url(quest_figures["quest"]))

    assert response.status_code == 403
    assert "Permission denied" in response.content.decode()


def test_a_learner_is_sent_to_the_admin_login(client, user, quest_figures):
    client.force_login(user)

    response = client.get(quest_url(quest_figures["quest"]))

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_an_unknown_quest_is_an_admin_404(client, editor):
    response = client.get(reverse("admin:insights_questanalytics_quest", args=[999_999]))

    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_editors_cannot_change_or_delete_through_the_analytics_entry(client, editor, quest_figures):
    quest = quest_figures["quest"]

    change = client.get(reverse("admin:insights_questanalytics_change", args=[quest.id]))
    delete = client.post(
        reverse("admin:insights_questanalytics_delete", args=[quest.id]), {"post": "yes"}
    )

    assert change.status_code == 302
    assert change["Location"] == quest_url(quest)
    assert delete.status_code == 403


def test_a_quest_without_lessons_or_learners_has_empty_charts(client, editor):
    from lessons.tests.factories import QuestFactory

    quest = QuestFactory()

    response = client.get(quest_url(quest))

    assert response.status_code == 200
    assert "0 learners completed at least one of the 0 lessons" in response.content.decode()
    assert "No data yet." in response.content.decode()
