import importlib
from pathlib import Path

import pytest
import yaml
from django.apps import apps
from django.conf import settings

from achievements.models import Achievement, RuleKind
from lessons.tests.factories import TagFactory

seed_migration = importlib.import_module("achievements.migrations.0002_seed_achievements")
DEMO_LESSONS = Path(settings.BASE_DIR) / "content" / settings.DEMO_QUEST_SLUG / "lessons"


@pytest.mark.django_db
def test_the_migration_seeds_exactly_ten_active_achievements():
    assert Achievement.objects.filter(is_active=True).count() == 10


@pytest.mark.django_db
def test_every_seeded_achievement_has_a_valid_rule():
    tags = {a.tag_slug for a in Achievement.objects.all() if a.tag_slug}
    for slug in tags:
        TagFactory(slug=slug)

    for achievement in Achievement.objects.all():
        achievement.full_clean()


@pytest.mark.django_db
def test_the_seed_uses_a_variety_of_rule_kinds():
    kinds = set(Achievement.objects.values_list("rule_kind", flat=True))

    assert kinds == set(RuleKind.values)


@pytest.mark.django_db
def test_the_seeded_tag_rule_names_a_tag_of_a_few_demo_lessons():
    (tag,) = Achievement.objects.filter(rule_kind=RuleKind.TAG_COMPLETED).values_list(
        "tag_slug", flat=True
    )
    tagged = [
        path
        for path in DEMO_LESSONS.glob("*.yaml")
        if tag in (yaml.safe_load(path.read_text()).get("tags") or [])
    ]

    assert 3 <= len(tagged) <= 8


@pytest.mark.django_db
def test_the_seed_reverses_and_reapplies_without_duplicates():
    Achievement.objects.create(
        slug="editor-made", title="Editor made", rule_kind=RuleKind.XP_TOTAL, threshold=5
    )

    seed_migration.unseed(apps, None)
    assert list(Achievement.objects.values_list("slug", flat=True)) == ["editor-made"]
    seed_migration.seed(apps, None)
    seed_migration.seed(apps, None)

    assert Achievement.objects.count() == 11
