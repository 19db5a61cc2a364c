"""Each change list's search box says what it searches."""

import pytest
from django.contrib import admin

from learning_platform.admin_lists import LearnerSearchAdmin

PROJECT_APPS = (
    "accounts",
    "lessons",
    "progress",
    "achievements",
    "exercises",
    "community",
    "notifications",
    "insights",
)


def _project_admins():
    return [
        model_admin
        for model_admin in admin.site._registry.values()
        if type(model_admin).__module__.split(".")[0] in PROJECT_APPS and model_admin.search_fields
    ]


@pytest.mark.parametrize("model_admin", _project_admins(), ids=lambda a: type(a).__name__)
def test_every_searchable_list_has_help_matching_what_it_searches(model_admin):
    help_text = model_admin.search_help_text or ""

    assert help_text
    # Only the lists searched by learner say so (the quest analytics list once did, wrongly).
    assert ("learner" in help_text) == isinstance(model_admin, LearnerSearchAdmin)


@pytest.mark.django_db
def test_the_quest_analytics_list_searches_quests(client, editor):
    from lessons.tests.factories import QuestFactory

    QuestFactory(title="Transformers")
    QuestFactory(title="Tokenizers")

    response = client.get("/admin/insights/questanalytics/", {"q": "Transf"})

    body = response.content.decode()
    assert response.status_code == 200
    assert (
        "Part of a quest&#x27;s title or slug." in body
        or "Part of a quest's title or slug." in body
    )
    assert "Transformers" in body
    assert "Tokenizers" not in body
    assert "e-mail" not in body
