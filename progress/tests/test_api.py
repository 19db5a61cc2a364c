import uuid
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.db.models import Sum
from django.utils import timezone

from accounts.tests.factories import UserFactory
from lessons.models import Lesson
from lessons.tests.factories import LessonFactory, QuestFactory
from progress import services
from progress.models import LearnerStats, LessonCompletion, XPAward

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_clock")]

COMPLETE = "/api/v1/lessons/{}/complete"
PROGRESS = "/api/v1/me/progress"
SYNC = "/api/v1/me/progress/sync"
LEADERBOARD = "/api/v1/leaderboard"


@pytest.fixture
def demo_lessons(db):
    quest = QuestFactory(slug=settings.DEMO_QUEST_SLUG, title="Transformers")
    # One INSERT for all 94: their saves' signals would only bump cache versions nothing has
    # read yet, and 94 round trips were most of each test's time on PostgreSQL.
    return Lesson.objects.bulk_create(LessonFactory.build_batch(94, quest=quest, xp=30))


@pytest.fixture
def lesson(db):
    # Not in the demo quest: completing a one-lesson demo quest would unlock its quest achievements.
    return LessonFactory(xp=40)


def _run(body: dict) -> dict:
    return {"current": body["streak"]["current"], "best": body["streak"]["best"]}


def event(lesson_slug: str, *, at=None, **overrides) -> dict:
    return {
        "id": str(uuid.uuid4()),
        "type": "lesson_completed",
        "lesson": lesson_slug,
        "occurred_at": (at or timezone.now() - timedelta(hours=1)).isoformat(),
        **overrides,
    }


def sync(client, events, *, device_id="phone", cursor=None, **query):
    body = {"device_id": device_id, "events": events}
    if cursor is not None:
        body["cursor"] = cursor
    path = SYNC + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    return client.post(path, body, format="json")


# --- POST /lessons/{slug}/complete ------------------------------------------------------------


def test_complete_records_the_first_completion_with_201(user_client, user, lesson):
    response = user_client.post(COMPLETE.format(lesson.slug))

    assert response.status_code == 201
    body = response.json()
    assert body["lesson"] == lesson.slug
    assert body["xp_awarded"] == 40
    assert body["level_before"] == {"number": 0, "name": "Token"}
    assert LessonCompletion.objects.filter(user=user, lesson=lesson).count() == 1


def test_complete_again_answers_200_and_awards_nothing(user_client, user, lesson):
    first = user_client.post(COMPLETE.format(lesson.slug)).json()

    response = user_client.post(COMPLETE.format(lesson.slug))

    assert response.status_code == 200
    body = response.json()
    assert body["xp_awarded"] == 0
    assert body["new_achievements"] == []
    assert body["level_up"] is False
    assert body["xp"] == first["xp"]
    assert body["completed_at"] == first["completed_at"]
    assert XPAward.objects.filter(user=user, source_type="lesson").count() == 1


def test_complete_reports_a_level_up(user_client):
    big = LessonFactory(xp=150)

    body = user_client.post(COMPLETE.format(big.slug)).json()

    assert body["level_before"] == {"number": 0, "name": "Token"}
    assert body["level_after"] == {"number": 1, "name": "Embedding"}
    assert body["level_up"] is True


def test_complete_answers_the_achievements_it_unlocked(user_client, lesson):
    # The seeded "first-token": complete your first lesson, +10 XP.
    body = user_client.post(COMPLETE.format(lesson.slug)).json()

    assert [a["slug"] for a in body["new_achievements"]] == ["first-token"]
    assert body["xp"] == 40 + body["new_achievements"][0]["xp_bonus"]


def test_complete_a_draft_is_404(user_client):
    draft = LessonFactory(published=False)

    response = user_client.post(COMPLETE.format(draft.slug))

    assert response.status_code == 404
    assert response.json()["type"] == "not_found"
    assert not LessonCompletion.objects.exists()


def test_complete_a_draft_is_404_for_staff_too(staff_client):
    draft = LessonFactory(published=False)

    assert staff_client.post(COMPLETE.format(draft.slug)).status_code == 404


def test_complete_an_unknown_lesson_is_404(user_client):
    assert user_client.post(COMPLETE.format("no-such-lesson")).status_code == 404


def test_complete_needs_a_signed_in_learner(api_client, lesson):
    response = api_client.post(COMPLETE.format(lesson.slug))

    assert response.status_code in (401, 403)
    assert not LessonCompletion.objects.exists()


# --- GET /me/progress ---------------------------------------------------------------------


def test_progress_of_a_new_learner_on_the_demo_quest(user_client, demo_lessons):
    response = user_client.get(PROGRESS)

    assert response.status_code == 200
    assert response.json() == {
        "quest": settings.DEMO_QUEST_SLUG,
        "level": {"number": 0, "name": "Token"},
        "xp": 0,
        "xp_into_level": 0,
        "xp_for_level": 120,
        "xp_to_go": 120,
        "next_level": {"number": 1, "name": "Embedding", "xp_required": 120},
        "lessons_completed": 0,
        "lessons_total": 94,
        "percent_complete": 0,
        "achievements_unlocked": 0,
        "achievements_total": 10,
        "streak": {"current": 0, "best": 0, "today": "none", "freezes": 0},
        "daily_goal": {"xp": None, "xp_today": 0, "met": False, "chosen": False},
        "completed_lessons": [],
    }


def test_progress_after_completing_lessons(user_client, demo_lessons):
    for lesson in demo_lessons[:5]:
        user_client.post(COMPLETE.format(lesson.slug))

    body = user_client.get(PROGRESS).json()

    assert body["lessons_completed"] == 5
    assert body["completed_lessons"] == [lesson.slug for lesson in demo_lessons[:5]]
    assert body["percent_complete"] == 5
    # 5 x 30 XP, plus "first-token" (10).
    assert body["xp"] == 160
    assert body["level"] == {"number": 1, "name": "Embedding"}
    assert body["xp_into_level"] == 40
    assert body["xp_to_go"] == 120
    assert body["achievements_unlocked"] == 1
    assert body["streak"] == {"current": 1, "best": 1, "today": "done", "freezes": 0}


def test_progress_counts_only_published_lessons(user_client, user, demo_lessons):
    draft = LessonFactory(quest=demo_lessons[0].quest, published=False)
    LessonCompletion.objects.create(user=user, lesson=draft, completed_at=timezone.now())

    body = user_client.get(PROGRESS).json()

    assert (body["lessons_completed"], body["lessons_total"]) == (0, 94)


def test_progress_of_another_quest(user_client, user):
    quest = QuestFactory(slug="rust")
    lessons = LessonFactory.create_batch(4, quest=quest)
    LessonCompletion.objects.create(user=user, lesson=lessons[0], completed_at=timezone.now())

    body = user_client.get(PROGRESS, {"quest": "rust"}).json()

    assert (body["quest"], body["lessons_completed"], body["lessons_total"]) == ("rust", 1, 4)
    assert body["percent_complete"] == 25


def test_progress_of_an_unknown_quest_is_404(user_client):
    assert user_client.get(PROGRESS, {"quest": "no-such-quest"}).status_code == 404


def test_progress_of_a_quest_with_no_published_lesson(user_client, django_assert_max_num_queries):
    QuestFactory(slug="empty")

    with django_assert_max_num_queries(5):
        body = user_client.get(PROGRESS, {"quest": "empty"}).json()

    assert (body["lessons_total"], body["percent_complete"], body["completed_lessons"]) == (
        0,
        0,
        [],
    )


def test_progress_with_a_malformed_quest_slug_is_400(user_client):
    response = user_client.get(PROGRESS, {"quest": "not a slug!"})

    assert response.status_code == 400
    assert "quest" in response.json()["errors"]


def test_progress_reads_the_streak_in_the_learners_time_zone(user_client, user, demo_lessons):
    user.time_zone = "Pacific/Kiritimati"  # UTC+14: often already tomorrow
    user.save()
    user_client.post(COMPLETE.format(demo_lessons[0].slug))

    assert _run(user_client.get(PROGRESS).json()) == {"current": 1, "best": 1}


def test_changing_time_zone_does_not_count_a_streak_day_twice(user_client, user, demo_lessons):
    # Issue 25: at 11:00 UTC it is already tomorrow in Pacific/Kiritimati (UTC+14); a lesson in
    # UTC, a switch, another lesson made a streak of 2 within seconds.
    with time_machine.travel(datetime(2024, 1, 10, 11, tzinfo=UTC), tick=False):
        assert user_client.post(COMPLETE.format(demo_lessons[0].slug)).status_code == 201
        response = user_client.patch(
            "/api/v1/me/", {"time_zone": "Pacific/Kiritimati"}, format="json"
        )
        assert response.status_code == 200
        assert user_client.post(COMPLETE.format(demo_lessons[1].slug)).status_code == 201

        assert _run(user_client.get(PROGRESS).json()) == {"current": 1, "best": 1}
    # The next real day counts in the new zone: Jan 11 began in UTC 24 hours after Jan 10.
    with time_machine.travel(datetime(2024, 1, 11, 11, tzinfo=UTC), tick=False):
        assert user_client.post(COMPLETE.format(demo_lessons[2].slug)).status_code == 201

        assert _run(user_client.get(PROGRESS).json()) == {"current": 2, "best": 2}


@pytest.mark.parametrize(
    ("at", "shown", "after"),
    [
        # Jan 11, 11:00 UTC is already Jan 12, 01:00 in Pacific/Kiritimati: by the calendar
        # there a day was missed, but in real time only one day began since Jan 10, and a
        # lesson now counts on it.
        (
            datetime(2024, 1, 11, 11, tzinfo=UTC),
            {"current": 1, "best": 1},
            {"current": 2, "best": 2},
        ),
        # Jan 12, 01:00 UTC: two days began since Jan 10 in real time, none of them active.
        (
            datetime(2024, 1, 12, 1, tzinfo=UTC),
            {"current": 0, "best": 1},
            {"current": 1, "best": 1},
        ),
    ],
    ids=["run-alive", "run-broken"],
)
def test_after_a_move_east_the_progress_shows_the_streak_the_next_lesson_continues(
    user_client, user, demo_lessons, at, shown, after
):
    with time_machine.travel(datetime(2024, 1, 10, 11, tzinfo=UTC), tick=False):
        assert user_client.post(COMPLETE.format(demo_lessons[0].slug)).status_code == 201
        response = user_client.patch(
            "/api/v1/me/", {"time_zone": "Pacific/Kiritimati"}, format="json"
        )
        assert response.status_code == 200

    with time_machine.travel(at, tick=False):
        assert _run(user_client.get(PROGRESS).json()) == shown
        assert user_client.post(COMPLETE.format(demo_lessons[1].slug)).status_code == 201
        assert _run(user_client.get(PROGRESS).json()) == after


def test_progress_needs_a_signed_in_learner(api_client):
    assert api_client.get(PROGRESS).status_code in (401, 403)


def test_progress_runs_at_most_5_queries_however_much_progress(
    user_client, user, demo_lessons, django_assert_max_num_queries
):
    now = timezone.now()
    LessonCompletion.objects.bulk_create(
        LessonCompletion(user=user, lesson=lesson, completed_at=now) for lesson in demo_lessons[:60]
    )
    for lesson in demo_lessons[:60]:
        services.award_xp(
            awards=[
                services.Award(
                    user_id=user.id, source_type="lesson", source_id=lesson.id, amount=30
                )
            ]
        )
    from achievements.services import evaluate_achievements

    evaluate_achievements(user_id=user.id)

    with django_assert_max_num_queries(5):
        body = user_client.get(PROGRESS).json()

    assert body["lessons_completed"] == 60
    assert body["achievements_unlocked"] >= 3


# --- POST /me/progress/sync ---------------------------------------------------------------


def test_sync_merges_completions_and_answers_the_merged_state(user_client, user, demo_lessons):
    events = [event(lesson.slug) for lesson in demo_lessons[:3]]

    response = sync(user_client, events)

    assert response.status_code == 200
    body = response.json()
    assert body["lessons_completed"] == 3
    assert body["lessons_total"] == 94
    assert body["completed_lessons"] == [lesson.slug for lesson in demo_lessons[:3]]
    assert body["rejected"] == []
    assert body["cursor"]
    assert body["xp"] == 3 * 30 + 10  # and "first-token"
    assert LessonCompletion.objects.filter(user=user).count() == 3


def test_sync_keeps_the_completion_time_of_the_event(user_client, user, lesson):
    at = timezone.now() - timedelta(days=3)

    sync(user_client, [event(lesson.slug, at=at)])

    assert LessonCompletion.objects.get(user=user).completed_at == at


def test_sync_replayed_changes_nothing(user_client, user, demo_lessons):
    events = [event(lesson.slug) for lesson in demo_lessons[:10]]
    first = sync(user_client, events).json()

    second = sync(user_client, events).json()

    assert LessonCompletion.objects.filter(user=user).count() == 10
    assert XPAward.objects.filter(user=user, source_type="lesson").count() == 10
    assert second["xp"] == first["xp"]
    assert second["new_achievements"] == []


def test_sync_of_the_same_lessons_from_two_devices_changes_nothing_the_second_time(
    user_client, user, demo_lessons
):
    sync(user_client, [event(lesson.slug) for lesson in demo_lessons[:5]], device_id="phone")

    body = sync(
        user_client, [event(lesson.slug) for lesson in demo_lessons[:5]], device_id="tablet"
    ).json()

    assert body["lessons_completed"] == 5
    assert XPAward.objects.filter(user=user, source_type="lesson").count() == 5


def test_sync_earliest_completion_time_wins(user_client, user, lesson):
    later = timezone.now() - timedelta(hours=2)
    earlier = timezone.now() - timedelta(days=2)
    sync(user_client, [event(lesson.slug, at=later)], device_id="phone")

    sync(user_client, [event(lesson.slug, at=earlier)], device_id="tablet")
    sync(user_client, [event(lesson.slug, at=later)], device_id="laptop")

    assert LessonCompletion.objects.get(user=user).completed_at == earlier


def test_sync_ignores_xp_the_client_claims(user_client, user, lesson):
    body = sync(user_client, [event(lesson.slug, xp=100000, amount=100000)]).json()

    assert XPAward.objects.get(user=user, source_type="lesson").amount == 40
    assert body["xp"] == 40 + 10  # the lesson and "first-token"


def test_sync_rejects_each_bad_event_with_a_reason_and_applies_the_rest(user_client, lesson):
    draft = LessonFactory(published=False)
    good = event(lesson.slug)
    unknown = event("no-such-lesson")
    drafted = event(draft.slug)
    future = event(lesson.slug, at=timezone.now() + timedelta(hours=1))
    no_time = event(lesson.slug, occurred_at="yesterday")
    bad_id = event(lesson.slug, id="not-a-uuid")
    bad_type = event(lesson.slug, type="lesson_started")

    body = sync(
        user_client, [good, unknown, drafted, future, no_time, bad_id, bad_type, "junk"]
    ).json()

    reasons = {r["id"]: r["reason"] for r in body["rejected"]}
    assert reasons == {
        unknown["id"]: "unknown_lesson",
        drafted["id"]: "unknown_lesson",  # a draft is not told from an unknown slug
        future["id"]: "future_time",
        no_time["id"]: "malformed",
        "not-a-uuid": "malformed",
        bad_type["id"]: "malformed",
        None: "malformed",
    }
    assert all(r["detail"] for r in body["rejected"])
    assert list(LessonCompletion.objects.values_list("lesson__slug", flat=True)) == [lesson.slug]


def test_sync_says_of_a_draft_exactly_what_it_says_of_an_unknown_lesson(user_client):
    # Else a sync would tell which unpublished slugs exist (issue 41, item 6).
    draft = LessonFactory(published=False, slug="upcoming-secret-lesson")

    body = sync(user_client, [event(draft.slug), event("no-such-lesson")]).json()

    drafted, unknown = ({k: v for k, v in r.items() if k != "id"} for r in body["rejected"])
    assert drafted == unknown == {"reason": "unknown_lesson", "detail": "No such lesson."}


def test_sync_accepts_a_device_clock_a_little_ahead(user_client, user, lesson):
    body = sync(user_client, [event(lesson.slug, at=timezone.now() + timedelta(minutes=2))]).json()

    assert body["rejected"] == []
    assert LessonCompletion.objects.filter(user=user, lesson=lesson).exists()


def test_sync_rejects_a_time_without_offset(user_client, lesson):
    naive = event(lesson.slug, occurred_at="2024-01-01T10:00:00")

    body = sync(user_client, [naive]).json()

    assert [r["reason"] for r in body["rejected"]] == ["malformed"]


def test_sync_of_500_events_is_accepted(user_client, lesson):
    response = sync(user_client, [event(lesson.slug) for _ in range(500)])

    assert response.status_code == 200


def test_sync_of_501_events_is_413(user_client, user, lesson):
    response = sync(user_client, [event(lesson.slug) for _ in range(501)])

    assert response.status_code == 413
    assert response.json()["type"] == "payload_too_large"
    assert not LessonCompletion.objects.filter(user=user).exists()


@pytest.mark.parametrize(
    "body",
    [
        {"events": []},
        {"device_id": "", "events": []},
        {"device_id": "phone"},
        {"device_id": "phone", "events": "lots"},
    ],
    ids=["no-device", "blank-device", "no-events", "events-not-a-list"],
)
def test_sync_bad_input_is_400(user_client, body):
    response = user_client.post(SYNC, body, format="json")

    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"


def test_sync_needs_a_signed_in_learner(api_client):
    assert api_client.post(SYNC, {"device_id": "x", "events": []}, format="json").status_code in (
        401,
        403,
    )


def test_sync_for_an_unknown_quest_is_404_and_changes_nothing(user_client, user, lesson):
    response = sync(user_client, [event(lesson.slug)], quest="no-such-quest")

    assert response.status_code == 404
    assert not LessonCompletion.objects.filter(user=user).exists()


def test_sync_with_a_cursor_returns_what_other_devices_added_since(user_client, demo_lessons):
    a, b, c, d = demo_lessons[:4]
    phone_cursor = sync(user_client, [event(a.slug)], device_id="phone").json()["cursor"]
    sync(user_client, [event(b.slug)], device_id="tablet")
    user_client.post(COMPLETE.format(c.slug))  # the web

    body = sync(user_client, [event(d.slug)], device_id="phone", cursor=phone_cursor).json()

    assert [(ch["lesson"], ch["device_id"]) for ch in body["changes"]] == [
        (b.slug, "tablet"),
        (c.slug, ""),
    ]


def test_sync_cursor_moves_on(user_client, demo_lessons):
    a, b = demo_lessons[:2]
    first = sync(user_client, [], device_id="phone").json()
    sync(user_client, [event(a.slug)], device_id="tablet")
    second = sync(user_client, [], device_id="phone", cursor=first["cursor"]).json()
    sync(user_client, [event(b.slug)], device_id="tablet")

    third = sync(user_client, [], device_id="phone", cursor=second["cursor"]).json()

    assert [ch["lesson"] for ch in second["changes"]] == [a.slug]
    assert [ch["lesson"] for ch in third["changes"]] == [b.slug]


def test_sync_without_cursor_returns_no_changes(user_client, demo_lessons):
    sync(user_client, [event(demo_lessons[0].slug)], device_id="tablet")

    body = sync(user_client, [], device_id="phone").json()

    assert body["changes"] == []
    assert body["completed_lessons"] == [demo_lessons[0].slug]


def test_sync_returns_an_earlier_time_another_device_reported(user_client, lesson):
    first = sync(user_client, [event(lesson.slug)], device_id="phone").json()
    earlier = timezone.now() - timedelta(days=5)
    sync(user_client, [event(lesson.slug, at=earlier)], device_id="tablet")

    body = sync(user_client, [], device_id="phone", cursor=first["cursor"]).json()

    assert [(ch["lesson"], ch["device_id"]) for ch in body["changes"]] == [(lesson.slug, "tablet")]


def test_sync_counts_offline_days_within_the_witness_window_for_the_streak(
    user_client, demo_lessons
):
    now = timezone.now()
    events = [
        event(lesson.slug, at=now - timedelta(hours=hours_ago))
        for hours_ago, lesson in zip([47, 24, 0], demo_lessons, strict=False)
    ]

    body = sync(user_client, events).json()

    assert body["streak"]["current"] >= 2  # 47 h ago may fall on the day before yesterday
    assert body["streak"]["current"] == len(
        {timezone.localtime(now - timedelta(hours=h)).date() for h in (47, 24, 0)}
    )


def test_first_sync_of_94_events_runs_at_most_29_queries(
    user_client, user, demo_lessons, django_assert_max_num_queries
):
    # With the ten seeded achievements: merging, paying XP and unlocking what it earns; and
    # the learner's first league placement (leagues hears xp_paid: 4 statements, once a week).
    events = [event(lesson.slug) for lesson in demo_lessons]

    with django_assert_max_num_queries(29):
        response = sync(user_client, events)

    body = response.json()
    assert body["lessons_completed"] == 94
    assert len(body["new_achievements"]) >= 4


def test_sync_of_94_events_from_a_second_device_runs_at_most_25_queries(
    user_client, demo_lessons, django_assert_max_num_queries
):
    # The seeded achievements are evaluated; those still out of reach cost their metrics.
    sync(user_client, [event(lesson.slug) for lesson in demo_lessons], device_id="phone")
    events = [event(lesson.slug) for lesson in demo_lessons]

    with django_assert_max_num_queries(25):
        response = sync(user_client, events, device_id="tablet", cursor=None)

    assert response.json()["lessons_completed"] == 94


def test_sync_with_a_cursor_of_94_events_runs_at_most_25_queries(
    user_client, demo_lessons, django_assert_max_num_queries
):
    cursor = sync(user_client, [], device_id="phone").json()["cursor"]
    sync(user_client, [event(lesson.slug) for lesson in demo_lessons], device_id="tablet")
    events = [event(lesson.slug) for lesson in demo_lessons]

    with django_assert_max_num_queries(25):
        body = sync(user_client, events, device_id="phone", cursor=cursor).json()

    assert len(body["changes"]) == 94


def test_sync_keeps_the_total_equal_to_the_ledger(user_client, user, demo_lessons):
    sync(user_client, [event(lesson.slug) for lesson in demo_lessons[:50]], device_id="phone")
    sync(user_client, [event(lesson.slug) for lesson in demo_lessons[25:]], device_id="tablet")

    ledger = XPAward.objects.filter(user=user).aggregate(total=Sum("amount"))["total"]
    assert LearnerStats.objects.get(pk=user.pk).xp_total == ledger


# --- GET /leaderboard ---------------------------------------------------------------------


def give(user, amount: int, *, days_ago: float = 0, source_id: int | None = None) -> None:
    services.award_xp(
        awards=[
            services.Award(
                user_id=user.id,
                source_type="exercise",
                source_id=source_id or XPAward.objects.count() + 1,
                amount=amount,
                awarded_at=timezone.now() - timedelta(days=days_ago),
            )
        ]
    )


def test_leaderboard_ranks_learners_by_xp_in_the_period(api_client):
    alice, bob, carol = (UserFactory(display_name=n) for n in ("Alice", "Bob", "Carol"))
    give(alice, 100)
    give(bob, 300)
    give(carol, 100)
    give(carol, 1000, days_ago=10)  # outside the week

    body = api_client.get(LEADERBOARD, {"period": "week"}).json()

    assert [(e["rank"], e["display_name"], e["xp"]) for e in body["entries"]] == [
        (1, "Bob", 300),
        (2, "Alice", 100),
        (2, "Carol", 100),
    ]
    assert body["me"] is None


def test_leaderboard_all_time_counts_everything(api_client):
    carol = UserFactory(display_name="Carol")
    give(carol, 100)
    give(carol, 1000, days_ago=100)

    body = api_client.get(LEADERBOARD, {"period": "all"}).json()

    assert [(e["display_name"], e["xp"]) for e in body["entries"]] == [("Carol", 1100)]


def test_leaderboard_month_is_the_calendar_month(api_client):
    dave = UserFactory(display_name="Dave")
    give(dave, 10, days_ago=10)  # Sunday 1 March (the frozen clock: Wednesday 11 March)
    give(dave, 1000, days_ago=11)  # Saturday 28 February

    body = api_client.get(LEADERBOARD, {"period": "month"}).json()

    assert [(e["display_name"], e["xp"]) for e in body["entries"]] == [("Dave", 10)]
    assert (body["first_day"], body["last_day"]) == ("2026-03-01", "2026-03-31")


def test_leaderboard_week_is_the_calendar_week_from_monday(api_client):
    erin = UserFactory(display_name="Erin")
    give(erin, 10, days_ago=2)  # Monday 9 March, 10:00 UTC
    give(erin, 1000, days_ago=2.5)  # Sunday 8 March, 22:00 UTC: last week

    body = api_client.get(LEADERBOARD, {"period": "week"}).json()

    assert [(e["display_name"], e["xp"]) for e in body["entries"]] == [("Erin", 10)]


def test_leaderboard_bounds_are_utc_midnights_when_signed_out(api_client):
    body = api_client.get(LEADERBOARD, {"period": "week"}).json()

    assert (body["first_day"], body["last_day"]) == ("2026-03-09", "2026-03-15")
    assert (body["since"], body["ends_at"]) == ("2026-03-09T00:00:00Z", "2026-03-16T00:00:00Z")


def test_leaderboard_bounds_are_on_the_viewers_clock(user_client, user):
    user.time_zone = "Pacific/Auckland"  # UTC+13 in March (daylight time)
    user.save()

    body = user_client.get(LEADERBOARD, {"period": "week"}).json()

    assert (body["first_day"], body["last_day"]) == ("2026-03-09", "2026-03-15")
    assert (body["since"], body["ends_at"]) == ("2026-03-08T11:00:00Z", "2026-03-15T11:00:00Z")


def test_leaderboard_all_time_has_no_bounds(api_client):
    body = api_client.get(LEADERBOARD, {"period": "all"}).json()

    assert [body[k] for k in ("since", "ends_at", "first_day", "last_day")] == [None] * 4


def test_leaderboard_counts_xp_on_the_learners_own_day(api_client):
    # Sunday 8 March 11:00 UTC is Monday 01:00 on Kiritimati (UTC+14): this week's, there.
    kiri = UserFactory(display_name="Kiri", time_zone="Pacific/Kiritimati")
    give(kiri, 30, days_ago=2 + 23 / 24)

    body = api_client.get(LEADERBOARD, {"period": "week"}).json()

    assert [(e["display_name"], e["xp"]) for e in body["entries"]] == [("Kiri", 30)]


def test_leaderboard_leaves_out_learners_who_opted_out(api_client):
    shy = UserFactory(display_name="Shy", show_on_leaderboard=False)
    loud = UserFactory(display_name="Loud")
    give(shy, 500)
    give(loud, 100)

    body = api_client.get(LEADERBOARD, {"period": "week"}).json()

    assert [e["display_name"] for e in body["entries"]] == ["Loud"]


def test_leaderboard_tells_an_opted_out_learner_where_they_stand(user_client, user):
    user.show_on_leaderboard = False
    user.save()
    give(user, 500)
    give(UserFactory(), 100)

    body = user_client.get(LEADERBOARD, {"period": "week"}).json()

    assert body["me"] == {"rank": 1, "xp": 500, "on_leaderboard": False}
    assert all(not e["is_me"] for e in body["entries"])


def test_leaderboard_shows_the_top_50_and_the_callers_own_rank(
    settings, user_client, user, django_assert_max_num_queries
):
    # The SQL answer's count (Redis's is in test_boards.py: the frozen clock here is months
    # from Redis's own, by which it expires the day keys).
    settings.LEADERBOARD_REDIS = False
    others = UserFactory.create_batch(52)
    for i, other in enumerate(others):
        give(other, 1000 - i)
    give(user, 5)

    with django_assert_max_num_queries(3):
        body = user_client.get(LEADERBOARD, {"period": "week"}).json()

    assert len(body["entries"]) == 50
    assert body["entries"][0]["xp"] == 1000
    assert body["me"] == {"rank": 53, "xp": 5, "on_leaderboard": True}


def test_leaderboard_marks_the_caller_in_the_top(user_client, user):
    give(user, 50)

    body = user_client.get(LEADERBOARD, {"period": "week"}).json()

    assert body["entries"][0]["is_me"] is True
    assert body["me"] == {"rank": 1, "xp": 50, "on_leaderboard": True}


def test_leaderboard_with_an_unknown_period_is_400(api_client):
    assert api_client.get(LEADERBOARD, {"period": "decade"}).status_code == 400


def test_sync_rejects_times_long_before_the_account_and_out_of_range(user_client, lesson):
    ancient = event(lesson.slug, occurred_at="1971-01-01T00:00:00Z")
    overflowing = event(lesson.slug, occurred_at="0001-01-01T00:00:00+14:00")
    offline_last_month = event(lesson.slug, at=timezone.now() - timedelta(days=30))

    body = sync(user_client, [ancient, overflowing, offline_last_month, None]).json()

    reasons = {r["id"]: r["reason"] for r in body["rejected"]}
    assert reasons == {
        ancient["id"]: "too_old",
        overflowing["id"]: "malformed",
        None: "malformed",
    }
    assert LessonCompletion.objects.filter(lesson=lesson).count() == 1


def test_progress_reads_as_empty_before_the_demo_curriculum_is_loaded(user_client):
    response = user_client.get("/api/v1/me/progress")

    assert response.status_code == 200
    assert response.json()["lessons_total"] == 0


def test_leaderboard_shows_a_handle_for_learners_without_a_display_name(api_client):
    learner = UserFactory(email="jane.secret@example.com", display_name="")
    services.complete_lesson(user=learner, lesson_slug=LessonFactory(xp=10).slug)

    entries = api_client.get(LEADERBOARD, {"period": "all"}).json()["entries"]

    assert [e["display_name"] for e in entries] == [learner.public_name]
    assert "jane" not in learner.public_name


def test_a_new_account_cannot_sync_a_forged_streak_but_keeps_the_xp(user_client, user):
    # 41 lessons "completed" one a day over 40 days, synced at once by an account that is
    # seconds old: the server witnessed none of those days but today and yesterday.
    from achievements.models import AchievementUnlock

    lessons = LessonFactory.create_batch(41, xp=10)
    now = timezone.now()
    events = [
        event(lesson.slug, at=now - timedelta(days=days_ago, minutes=5))
        for days_ago, lesson in enumerate(lessons)
    ]

    body = sync(user_client, events).json()

    assert _run(body) == {"current": 2, "best": 2}
    assert LessonCompletion.objects.filter(user=user).count() == 41
    assert body["xp"] >= 410
    assert not AchievementUnlock.objects.filter(
        user=user, achievement__rule_kind="streak_days"
    ).exists()


@pytest.mark.parametrize("period", ["", "null", "year"])
def test_leaderboard_refuses_a_period_it_does_not_know_with_400(api_client, period):
    response = api_client.get(LEADERBOARD + f"?period={period}")

    assert response.status_code == 400
    assert "period" in response.json()["errors"]


def test_sync_with_a_cursor_this_server_cannot_read_answers_every_change(user_client, demo_lessons):
    # A cursor from before a key rotation (or garbage) is no error: the device gets a full
    # list of changes, as on its first sync with a cursor.
    sync(user_client, [event(demo_lessons[0].slug)], device_id="tablet")

    response = sync(user_client, [], device_id="phone", cursor="not-a-cursor")

    assert response.status_code == 200
    assert [c["lesson"] for c in response.json()["changes"]] == [demo_lessons[0].slug]


# --- Exact statement counts of the command endpoints -------------------------------------------
# Measured on SQLite and PostgreSQL (the same on both). With the ten seeded achievements, so an
# unlock's bonus and the rules a lesson can move are part of the count.


def test_complete_the_first_time_runs_25_queries(user_client, lesson, django_assert_num_queries):
    # 5 of them the leagues' (hearing xp_paid): the week's first XP places the learner. The
    # achievement's bonus reaches their league XP by the ledger's trigger, in its insert.
    with django_assert_num_queries(25):
        response = user_client.post(COMPLETE.format(lesson.slug))

    assert response.status_code == 201


def test_complete_again_runs_5_queries(user_client, lesson, django_assert_num_queries):
    user_client.post(COMPLETE.format(lesson.slug))

    with django_assert_num_queries(5):
        response = user_client.post(COMPLETE.format(lesson.slug))

    assert response.status_code == 200


def test_sync_runs_16_queries(user_client, demo_lessons, django_assert_num_queries):
    cursor = sync(user_client, [event(demo_lessons[0].slug)], device_id="tablet").json()["cursor"]
    events = [event(lesson.slug) for lesson in demo_lessons[:3]] + [event("x", id="not-a-uuid")]

    # None of them the leagues': the ledger's trigger adds the XP to the learner's league week.
    with django_assert_num_queries(16):
        response = sync(user_client, events, device_id="phone", cursor=cursor)

    assert response.status_code == 200
    assert [r["reason"] for r in response.json()["rejected"]] == ["malformed"]


# --- GET /me/progress: conditional ----------------------------------------------------------


def test_progress_answers_304_to_its_own_etag(user_client, lesson):
    first = user_client.get(PROGRESS)

    again = user_client.get(PROGRESS, HTTP_IF_NONE_MATCH=first["ETag"])

    assert first.status_code == 200
    assert again.status_code == 304
    assert again.content == b""


def test_progress_answers_200_with_a_new_etag_after_a_completion(user_client, lesson):
    first = user_client.get(PROGRESS)
    user_client.post(COMPLETE.format(lesson.slug))

    after = user_client.get(PROGRESS, HTTP_IF_NONE_MATCH=first["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != first["ETag"]
    assert after.json()["xp"] > first.json()["xp"]


def test_progress_is_private_and_revalidated(user_client):
    response = user_client.get(PROGRESS)

    assert response["Cache-Control"] == "private, no-cache"
