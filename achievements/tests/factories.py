import factory

from achievements.models import Achievement, AchievementUnlock, RuleKind


class AchievementFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Achievement

    slug = factory.Sequence(lambda n: f"achievement-{n}")
    title = factory.Sequence(lambda n: f"Achievement {n}")
    description = "Do the thing."
    icon = "trophy"
    xp_bonus = 0
    rule_kind = RuleKind.LESSONS_COMPLETED
    threshold = 1
    position = factory.Sequence(lambda n: n)


class AchievementUnlockFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AchievementUnlock

    user = factory.SubFactory("accounts.tests.factories.UserFactory")
    achievement = factory.SubFactory(AchievementFactory)
