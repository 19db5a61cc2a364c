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


def count_unlocked(*, user_id: int) -> int:
    """How many active achievements the learner has unlocked (the app answers it with the
    total, in selectors.unlocked_and_total)."""
    return AchievementUnlock.objects.filter(user_id=user_id, achievement__is_active=True).count()
