import factory
from django.utils import timezone

from accounts.tests.factories import UserFactory
from lessons.tests.factories import LessonFactory
from progress.models import LessonCompletion, Level, XPAward
from progress.selectors import today_in


class LevelFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Level
        django_get_or_create = ("number",)

    number = factory.Sequence(lambda n: 100 + n)
    name = factory.Sequence(lambda n: f"Level {n}")
    xp_required = factory.Sequence(lambda n: 100_000 + n * 100)


class XPAwardFactory(factory.django.DjangoModelFactory):
    """A raw ledger row. Tests of totals go through services.award_xp instead."""

    class Meta:
        model = XPAward

    user = factory.SubFactory(UserFactory)
    source_type = XPAward.Source.LESSON
    source_id = factory.Sequence(lambda n: n + 1)
    amount = 20
    awarded_at = factory.LazyFunction(timezone.now)
    # The writer's day for a learner with no day before (progress.streaks.day_of_activity).
    day = factory.LazyAttribute(lambda award: today_in(award.user.tzinfo, at=award.awarded_at))


class LessonCompletionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = LessonCompletion

    user = factory.SubFactory(UserFactory)
    lesson = factory.SubFactory(LessonFactory)
    completed_at = factory.LazyFunction(timezone.now)
