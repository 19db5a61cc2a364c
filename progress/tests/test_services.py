from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db.models import Sum
from django.utils import timezone

from accounts.tests.factories import UserFactory
from lessons.tests.factories import LessonFactory, QuestFactory
from progress import selectors, services
from progress.models import ActivityDay, LearnerStats, LessonCompletion, Level, XPAward
from progress.tests import readings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_clock")]


@pytest.fixture(autouse=True)
def _no_achievements(db):
    """Achievement bonuses would move the totals these tests pin; the achievements app's own
    tests cover them."""
    from achievements.models import Achievement

    Achievement.objects.all().delete()


def ledger_total(user) -> int:
    return XPAward.objects.filter(user=user).aggregate(total=Sum("amount"))["total"] or 0


# --- award_xp -------------------------------------------------------------------------------


def test_award_xp_appends_a_ledger_row_and_grows_the_total(user):
    assert services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="exercise", source_id=7, amount=50)]
    )

    award = XPAward.objects.get(user=user)
    assert (award.source_type, award.source_id, award.amount) == ("exercise", 7, 50)
    assert selectors.xp_total(user_id=user.id) == 50


def test_award_xp_pays_a_source_once(user):
    first = services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="lesson", source_id=3, amount=30)]
    )
    second = services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="lesson", source_id=3, amount=30)]
    )

    assert (bool(first), bool(second)) == (True, False)
    assert XPAward.objects.filter(user=user).count() == 1
    assert selectors.xp_total(user_id=user.id) == 30


def test_award_xp_keeps_sources_of_different_types_apart(user):
    services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="lesson", source_id=1, amount=20)]
    )
    services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="exercise", source_id=1, amount=50)]
    )
    services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="achievement", source_id=1, amount=10)]
    )

    assert selectors.xp_total(user_id=user.id) == 80 == ledger_total(user)


def test_award_xp_keeps_learners_apart(user):
    other = UserFactory()

    services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="lesson", source_id=1, amount=20)]
    )
    services.award_xp(
        awards=[services.Award(user_id=other.id, source_type="lesson", source_id=1, amount=20)]
    )

    assert selectors.xp_total(user_id=user.id) == 20
    assert selectors.xp_total(user_id=other.id) == 20


def test_award_xp_total_equals_the_ledger_after_many_awards(user):
    for source_id in [1, 2, 2, 3, 1, 4]:
        services.award_xp(
            awards=[
                services.Award(
                    user_id=user.id, source_type="lesson", source_id=source_id, amount=15
                )
            ]
        )

    assert selectors.xp_total(user_id=user.id) == ledger_total(user) == 60


def test_award_xp_rejects_an_unknown_source_type(user):
    with pytest.raises(ValueError, match="source type"):
        services.award_xp(
            awards=[services.Award(user_id=user.id, source_type="bribe", source_id=1, amount=1000)]
        )

    assert not XPAward.objects.exists()


def test_award_xp_counts_the_day_as_active(user):
    services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="lesson", source_id=1, amount=20)]
    )

    assert readings.streak_for_user(user_id=user.id) == {"current": 1, "best": 1}


def test_award_xp_of_a_paid_source_does_not_count_a_new_day(user):
    long_ago = timezone.now() - timedelta(days=10)
    with time_machine.travel(long_ago, tick=False):
        services.award_xp(
            awards=[
                services.Award(
                    user_id=user.id,
                    source_type="lesson",
                    source_id=1,
                    amount=20,
                    awarded_at=long_ago,
                )
            ]
        )

    services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="lesson", source_id=1, amount=20)]
    )

    assert ActivityDay.objects.filter(user=user).count() == 1


def test_award_xp_of_one_source_to_many_learners_pays_each_once(user):
    other = UserFactory()

    def bonus(*learners):
        return services.award_xp(
            awards=[services.Award(u.id, "achievement", 9, 25) for u in learners]
        )

    first = bonus(user, other)
    again = bonus(other, user)

    assert {user_id for user_id, _, _ in first} == {user.id, other.id}
    assert again == {}
    assert selectors.xp_total(user_id=user.id) == ledger_total(user) == 25
    assert selectors.xp_total(user_id=other.id) == 25


def test_award_xp_to_many_learners_continues_a_streak_from_yesterday(user):
    yesterday = timezone.now() - timedelta(days=1)
    services.award_xp(
        awards=[
            services.Award(
                user_id=user.id, source_type="lesson", source_id=1, amount=10, awarded_at=yesterday
            )
        ]
    )
    fresh = UserFactory()

    services.award_xp(awards=[services.Award(u.id, "achievement", 3, 5) for u in (user, fresh)])

    assert readings.streak_for_user(user_id=user.id) == {"current": 2, "best": 2}
    assert readings.streak_for_user(user_id=fresh.id) == {"current": 1, "best": 1}
    assert ActivityDay.objects.filter(user=user).count() == 2


# --- levels ---------------------------------------------------------------------------------


def test_the_seeded_curve_starts_at_token_and_reaches_level_one_at_120_xp():
    curve = selectors.level_curve()

    assert (curve[0].number, curve[0].name, curve[0].xp_required) == (0, "Token", 0)
    assert (curve[1].number, curve[1].xp_required) == (1, 120)
    assert len(curve) >= 12


def test_level_for_a_new_learner_is_token(user):
    assert readings.level_for_user(user_id=user.id) == {"number": 0, "name": "Token", "xp": 0}


def test_level_for_user_follows_xp(user):
    services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="exercise", source_id=1, amount=125)]
    )

    assert readings.level_for_user(user_id=user.id) == {
        "number": 1,
        "name": "Embedding",
        "xp": 125,
    }


def test_editing_the_curve_relevels_on_the_next_read(user):
    services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="exercise", source_id=1, amount=125)]
    )

    Level.objects.filter(number=1).update(xp_required=200)

    assert readings.level_for_user(user_id=user.id)["number"] == 0


def test_a_learner_who_finishes_the_demo_quest_is_near_the_top():
    lessons_xp = 3170  # the 94 lessons of content/transformers
    achievements_xp = 375  # the ten seeded achievements' bonuses
    curve = selectors.level_curve()

    level = selectors.level_progress(xp=lessons_xp + achievements_xp + 500, curve=curve)["level"]

    assert curve[-1].number - 2 <= level["number"] < curve[-1].number


def test_level_progress_counts_xp_into_and_to_go():
    curve = selectors.level_curve()

    progress = selectors.level_progress(xp=200, curve=curve)

    assert progress["level"] == {"number": 1, "name": "Embedding"}
    assert progress["xp_into_level"] == 80
    assert progress["xp_for_level"] == 160
    assert progress["xp_to_go"] == 80
    assert progress["next_level"] == {
        "number": 2,
        "name": "Positional Encoding",
        "xp_required": 280,
    }


def test_level_progress_at_the_top_has_no_next_level():
    curve = selectors.level_curve()

    progress = selectors.level_progress(xp=curve[-1].xp_required + 1000, curve=curve)

    assert progress["level"]["number"] == curve[-1].number
    assert progress["next_level"] is None
    assert progress["xp_to_go"] == 0


# --- completion selectors -------------------------------------------------------------------


def test_completed_lesson_ids_filters_by_quest(user):
    lesson_a = LessonFactory()
    lesson_b = LessonFactory()
    LessonCompletion.objects.create(user=user, lesson=lesson_a, completed_at=timezone.now())
    LessonCompletion.objects.create(user=user, lesson=lesson_b, completed_at=timezone.now())

    assert selectors.completed_lesson_ids(user_id=user.id) == {lesson_a.id, lesson_b.id}
    assert selectors.completed_lesson_ids(user_id=user.id, quest_id=lesson_a.quest_id) == {
        lesson_a.id
    }


def test_completed_lesson_ids_runs_one_query(user, django_assert_num_queries):
    with django_assert_num_queries(1):
        selectors.completed_lesson_ids(user_id=user.id, quest_id=1)


def test_count_completed_lessons_counts_published_lessons_only(user):
    published = LessonFactory()
    draft = LessonFactory(published=False)
    for lesson in (published, draft):
        LessonCompletion.objects.create(user=user, lesson=lesson, completed_at=timezone.now())

    assert selectors.count_completed_lessons(user_id=user.id) == 1


def test_quest_percent_rounds_down(user):
    quest = QuestFactory()
    lessons = LessonFactory.create_batch(3, quest=quest)
    LessonFactory(quest=quest, published=False)
    LessonCompletion.objects.create(user=user, lesson=lessons[0], completed_at=timezone.now())

    assert selectors.quest_percent(user_id=user.id, quest_id=quest.id) == 33


# --- streaks --------------------------------------------------------------------------------


def award_on(user, day: datetime, source_id: int) -> None:
    """Activity the server witnessed on `day` (it happened and reached the server then)."""
    with time_machine.travel(day, tick=False):
        services.award_xp(
            awards=[
                services.Award(
                    user_id=user.id,
                    source_type="exercise",
                    source_id=source_id,
                    amount=5,
                    awarded_at=day,
                )
            ]
        )


def test_streak_counts_consecutive_days_up_to_today(user):
    now = timezone.now()
    for days_ago in (3, 2, 1, 0):
        award_on(user, now - timedelta(days=days_ago), source_id=days_ago)

    assert readings.streak_for_user(user_id=user.id) == {"current": 4, "best": 4}


def test_streak_is_still_current_the_day_after(user):
    now = timezone.now()
    award_on(user, now - timedelta(days=2), source_id=1)
    award_on(user, now - timedelta(days=1), source_id=2)

    assert readings.streak_for_user(user_id=user.id) == {"current": 2, "best": 2}


def test_streak_reads_zero_after_a_missed_day_and_keeps_the_best(user):
    now = timezone.now()
    for days_ago in (5, 4, 3):
        award_on(user, now - timedelta(days=days_ago), source_id=days_ago)

    assert readings.streak_for_user(user_id=user.id) == {"current": 0, "best": 3}


def test_streak_restarts_after_a_gap(user):
    now = timezone.now()
    for days_ago in (6, 5, 4, 1, 0):
        award_on(user, now - timedelta(days=days_ago), source_id=days_ago)

    assert readings.streak_for_user(user_id=user.id) == {"current": 2, "best": 3}


def test_streak_counts_a_day_synced_late_that_bridges_a_gap(user):
    now = timezone.now()
    for days_ago in (3, 2, 0):
        award_on(user, now - timedelta(days=days_ago), source_id=days_ago)
    assert readings.streak_for_user(user_id=user.id) == {"current": 1, "best": 2}

    # yesterday's activity reaches the server today: within the witness window
    services.award_xp(awards=[services.Award(user_id=user.id, source_type="exercise", source_id=1, amount=5,
        awarded_at=now - timedelta(days=1))])  # fmt: skip

    assert readings.streak_for_user(user_id=user.id) == {"current": 4, "best": 4}


def test_activity_reaching_the_server_later_than_the_witness_window_counts_xp_not_streak(user):
    now = timezone.now()
    award_on(user, now, source_id=1)

    services.award_xp(awards=[services.Award(user_id=user.id, source_type="exercise", source_id=2, amount=5,
        awarded_at=now - services.STREAK_WITNESS_WINDOW - timedelta(minutes=1))])  # fmt: skip

    assert readings.streak_for_user(user_id=user.id) == {"current": 1, "best": 1}
    assert selectors.standing_for_user(user_id=user.id)["xp_total"] == 10


def test_streak_days_are_the_learners_local_days(user):
    # 23:30 and 00:30 UTC are two days in UTC but one evening in Los Angeles (UTC-8).
    user.time_zone = "America/Los_Angeles"
    user.save()
    award_on(user, datetime(2024, 1, 10, 23, 30, tzinfo=UTC), source_id=1)
    award_on(user, datetime(2024, 1, 11, 0, 30, tzinfo=UTC), source_id=2)

    assert list(ActivityDay.objects.filter(user=user).values_list("day", flat=True)) == [
        datetime(2024, 1, 10).date()
    ]


def test_streak_crosses_midnight_in_the_learners_time_zone(user):
    # 14:30 and 15:30 UTC are one day in UTC, but 23:30 and 00:30 in Tokyo (UTC+9): two days.
    user.time_zone = "Asia/Tokyo"
    user.save()
    award_on(user, datetime(2024, 1, 10, 14, 30, tzinfo=UTC), source_id=1)
    award_on(user, datetime(2024, 1, 10, 15, 30, tzinfo=UTC), source_id=2)

    stats = LearnerStats.objects.get(pk=user.pk)
    assert (stats.streak_current, stats.streak_best) == (2, 2)
    assert stats.last_active_day == datetime(2024, 1, 11).date()


def test_current_streak_is_judged_by_today_in_the_learners_time_zone(user, monkeypatch):
    # Active on Jan 10 in Auckland (UTC+13). At 2024-01-11 12:00 UTC it is already Jan 12 there:
    # Jan 10 is two days ago, the streak is broken; in UTC it would still be alive.
    user.time_zone = "Pacific/Auckland"
    user.save()
    award_on(user, datetime(2024, 1, 9, 22, 0, tzinfo=UTC), source_id=1)  # Jan 10, 11:00 local
    monkeypatch.setattr(timezone, "now", lambda: datetime(2024, 1, 11, 12, 0, tzinfo=UTC))

    assert readings.streak_for_user(user_id=user.id) == {"current": 0, "best": 1}


def test_award_xp_of_several_sources_pays_each_new_one_once(user):
    services.award_xp(
        awards=[services.Award(user_id=user.id, source_type="achievement", source_id=1, amount=10)]
    )

    newly = services.award_xp(
        awards=[
            services.Award(user.id, "achievement", 1, 10),
            services.Award(user.id, "achievement", 2, 25),
            services.Award(user.id, "achievement", 2, 25),
        ]
    )

    assert set(newly) == {(user.id, "achievement", 2)}
    assert selectors.xp_total(user_id=user.id) == 35 == ledger_total(user)


def test_award_xp_costs_three_statements_on_a_day_already_active(
    user, ledger_alone, django_assert_num_queries
):
    services.award_xp(awards=[services.Award(user.id, "lesson", 1, 10)])

    # lock (and read) the stats row, the ledger, the stats
    with django_assert_num_queries(3):
        services.award_xp(
            awards=[
                services.Award(user.id, "achievement", 1, 10),
                services.Award(user.id, "achievement", 2, 25),
            ]
        )


def test_award_xp_costs_four_statements_on_a_new_day_however_many_learners(
    ledger_alone, django_assert_num_queries
):
    learners = UserFactory.create_batch(3)

    # create and lock the stats rows, the ledger, the days, the stats
    with django_assert_num_queries(4):
        paid = services.award_xp(awards=[services.Award(u.id, "exercise", 1, 10) for u in learners])

    assert len(paid) == 3


def test_award_xp_of_sources_paid_already_costs_two_statements(user, django_assert_num_queries):
    services.award_xp(awards=[services.Award(user.id, "lesson", 1, 10)])

    # lock, the ledger (nothing inserted, nothing written)
    with django_assert_num_queries(2):
        assert services.award_xp(awards=[services.Award(user.id, "lesson", 1, 10)]) == {}
