from datetime import UTC, date, datetime

import factory

from accounts.tests.factories import UserFactory
from leagues.models import Cohort, Leaguer, Membership

WEEK = date(2026, 3, 9)  # a Monday


class LeaguerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Leaguer

    user = factory.SubFactory(UserFactory)
    tier = 0
    last_week = WEEK


class CohortFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Cohort

    week = WEEK
    tier = 0
    anchor_offset = 0
    size = 0
    ends_at = datetime(2026, 3, 16, tzinfo=UTC)


class MembershipFactory(factory.django.DjangoModelFactory):
    """A member of `cohort` with a Leaguer row at the cohort's tier (counted into its size)."""

    class Meta:
        model = Membership
        skip_postgeneration_save = True

    user = factory.SubFactory(UserFactory)
    cohort = factory.SubFactory(CohortFactory)
    week = factory.SelfAttribute("cohort.week")
    offset = factory.SelfAttribute("cohort.anchor_offset")
    xp = 10
    reached_at = datetime(2026, 3, 11, 12, tzinfo=UTC)

    @factory.post_generation
    def leaguer(obj, create, extracted, **kwargs):
        if create:
            Leaguer.objects.update_or_create(
                user_id=obj.user_id, defaults={"tier": obj.cohort.tier, "last_week": obj.week}
            )
            members = Membership.objects.filter(cohort_id=obj.cohort_id).count()
            Cohort.objects.filter(pk=obj.cohort_id).update(size=members)
