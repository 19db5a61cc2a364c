"""Drafts of live lessons: learners read the published lesson until the draft is published."""

from datetime import timedelta

import pytest
import time_machine
from django.db import IntegrityError, transaction
from django.urls import reverse

from exercises.models import CheckAnswer, CheckState
from learning_platform import clock
from lessons import live_drafts, services, tasks
from lessons.models import Block, Lesson
from lessons.tests.factories import (
    CHOICE_CHECK,
    CheckBlockFactory,
    LessonFactory,
    LinkFactory,
    ProseBlockFactory,
    QuestFactory,
    TagFactory,
)
from progress.models import XPAward

pytestmark = pytest.mark.django_db


@pytest.fixture
def live():
    """A published lesson with prose, two checks, a link and a tag, second in its quest."""
    quest = QuestFactory(slug="drafts-quest")
    LessonFactory(quest=quest, slug="first-one", position=1, published=True)
    lesson = LessonFactory(
        quest=quest, slug="live-one", title="Live", position=2, published=True, tags=["width"]
    )
    ProseBlockFactory(lesson=lesson, position=1, markdown="Old words.\n")
    CheckBlockFactory(lesson=lesson, position=2)
    CheckBlockFactory(lesson=lesson, position=3, spec=dict(CHOICE_CHECK))
    LinkFactory(lesson=lesson, position=1, title="Paper")
    lesson.save()  # after its blocks, as the admin saves: this record closes the version
    return lesson


def _rewrite(draft: Lesson) -> None:
    """An editor's edits of the draft: title, prose, a check's prompt, a new tag, no link."""
    draft.title = "Live, rewritten"
    draft.save()
    prose = draft.blocks.get(kind="prose")
    prose.markdown = "New words.\n"  # as the admin stores it
    prose.save()
    check = draft.blocks.get(kind="check", spec__key="head-dimension")
    check.markdown = "Per head, how many dimensions?"
    check.save()
    draft.tags.add(TagFactory(slug="rewrite"))
    draft.links.all().delete()


def _pay_first_check(user_client, lesson: Lesson) -> Block:
    check = lesson.blocks.get(kind="check", spec__key="head-dimension")
    response = user_client.post(
        reverse("check-answers", args=[check.pk]), {"answer": {"value": "64"}}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["xp_awarded"] > 0
    return check


def test_a_draft_copies_the_live_lesson_and_one_is_made_per_lesson(live):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)

    assert draft.draft_of == live
    assert draft.draft_base_version == live.version
    assert not draft.published
    assert draft.title == live.title
    assert [b.kind for b in draft.blocks.order_by("position")] == ["prose", "check", "check"]
    assert {b.spec.get("key") for b in draft.blocks.filter(kind="check")} == {
        "head-dimension",
        "what-grows",
    }
    assert list(draft.tags.values_list("slug", flat=True)) == ["width"]
    assert list(draft.links.values_list("title", flat=True)) == ["Paper"]
    assert live_drafts.make_live_draft(lesson_id=live.pk) == draft  # the same one again
    with pytest.raises(IntegrityError), transaction.atomic():
        LessonFactory(quest=live.quest, slug="second-draft", draft_of=live)


def test_only_a_published_lesson_gets_a_draft(live):
    unpublished = LessonFactory(quest=live.quest, slug="not-out-yet", published=False)

    with pytest.raises(live_drafts.NotLive):
        live_drafts.make_live_draft(lesson_id=unpublished.pk)
    with pytest.raises(live_drafts.DraftNotFound):
        live_drafts.make_live_draft(lesson_id=999_999)


def test_a_draft_can_never_be_published_itself(live):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)

    draft.published = True
    with pytest.raises(IntegrityError), transaction.atomic():
        draft.save()
    assert services.set_published(lesson_ids=[draft.pk], published=True) == 0


def test_learners_never_see_the_draft_staff_preview_it(live, api_client, staff_client):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    _rewrite(draft)

    assert api_client.get(reverse("lesson-detail", args=[draft.slug])).status_code == 404
    listed = api_client.get("/api/v1/lessons/", {"quest": "drafts-quest"}).json()["results"]
    assert [lesson["slug"] for lesson in listed] == ["first-one", "live-one"]
    outline = api_client.get("/api/v1/quests/drafts-quest/").json()
    assert [lesson["slug"] for lesson in outline["lessons"]] == ["first-one", "live-one"]
    page = api_client.get(reverse("lesson-detail", args=[live.slug])).json()
    assert page["title"] == "Live"
    assert page["draft_of"] is None
    # Staff: not in their lists either, but its own page previews it, saying what it drafts.
    staff_listed = staff_client.get("/api/v1/lessons/", {"quest": "drafts-quest"}).json()
    assert [lesson["slug"] for lesson in staff_listed["results"]] == ["first-one", "live-one"]
    preview = staff_client.get(reverse("lesson-detail", args=[draft.slug]))
    assert preview.status_code == 200
    assert preview.json()["title"] == "Live, rewritten"
    assert preview.json()["draft_of"] == "live-one"


def test_answering_a_draft_check_in_a_preview_records_and_pays_nothing(live, staff_client):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    check = draft.blocks.get(kind="check", spec__key="head-dimension")

    response = staff_client.post(
        reverse("check-answers", args=[check.pk]), {"answer": {"value": "64"}}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["correct"] is True
    assert response.json()["xp_awarded"] == 0
    assert not CheckAnswer.objects.exists()
    assert not CheckState.objects.exists()
    assert not XPAward.objects.exists()


def test_publishing_copies_the_draft_as_one_version_and_keeps_answers(live, user, user_client):
    check = _pay_first_check(user_client, live)
    paid = XPAward.objects.get()
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    _rewrite(draft)
    version_before = live.version

    published = live_drafts.publish_live_draft(draft_id=draft.pk)

    live.refresh_from_db()
    assert published == live
    assert (live.pk, live.slug, live.title) == (published.pk, "live-one", "Live, rewritten")
    assert live.published
    assert live.blocks.get(kind="prose").markdown == "New words.\n"
    same_check = live.blocks.get(kind="check", spec__key="head-dimension")
    assert same_check.pk == check.pk  # learners' answers and XP stay attached
    assert same_check.markdown == "Per head, how many dimensions?"
    assert not live.links.exists()
    assert sorted(live.tags.values_list("slug", flat=True)) == ["rewrite", "width"]
    assert not Lesson.objects.filter(pk=draft.pk).exists()
    assert live.version == version_before + 1  # one new version of the live lesson
    latest = Lesson.history.filter(id=live.pk).order_by("-history_date", "-history_id").first()
    assert latest.history_change_reason.startswith("Published the draft")
    assert CheckState.objects.get().check_block_id == check.pk
    # Answering the same check again pays nothing more.
    user_client.post(
        reverse("check-answers", args=[check.pk]), {"answer": {"value": "64"}}, format="json"
    )
    assert list(XPAward.objects.all()) == [paid]


def test_reverting_to_the_version_before_undoes_a_published_draft(live):
    before = Lesson.history.filter(id=live.pk).order_by("-history_date", "-history_id").first()
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    _rewrite(draft)
    live_drafts.publish_live_draft(draft_id=draft.pk)

    services.revert_lesson(lesson_id=live.pk, history_id=before.history_id)

    live.refresh_from_db()
    assert live.title == "Live"
    assert live.blocks.get(kind="prose").markdown == "Old words.\n"
    assert list(live.links.values_list("title", flat=True)) == ["Paper"]
    assert list(live.tags.values_list("slug", flat=True)) == ["width"]


def test_publishing_over_a_later_live_change_is_refused_and_loses_nothing(live):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    _rewrite(draft)
    live.title = "Fixed a typo live"
    live.version += 1
    live.save()

    with pytest.raises(live_drafts.LiveChangedSinceDraft) as refused:
        live_drafts.publish_live_draft(draft_id=draft.pk)

    assert "since this draft was made" in str(refused.value.detail)
    assert refused.value.changes
    live.refresh_from_db()
    assert live.title == "Fixed a typo live"
    assert Lesson.objects.get(pk=draft.pk).title == "Live, rewritten"
    # The editor may publish over it, having seen the change.
    live_drafts.publish_live_draft(draft_id=draft.pk, overwrite=True)
    live.refresh_from_db()
    assert live.title == "Live, rewritten"


def test_the_beat_task_publishes_a_scheduled_draft_when_its_time_comes(live):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    _rewrite(draft)
    at = clock.now() + timedelta(minutes=10)
    live_drafts.schedule_live_draft(draft_id=draft.pk, at=at)

    assert tasks.publish_due_lessons() == 0
    assert Lesson.objects.get(pk=live.pk).title == "Live"

    with time_machine.travel(at + timedelta(seconds=1), tick=False):
        assert tasks.publish_due_lessons() == 1
        assert tasks.publish_due_lessons() == 0  # idempotent
    live.refresh_from_db()
    assert live.title == "Live, rewritten"
    assert not Lesson.objects.filter(pk=draft.pk).exists()
    record = Lesson.history.filter(id=live.pk).order_by("-history_date", "-history_id").first()
    assert record.history_change_reason.startswith("publish_at")


def test_a_scheduled_draft_whose_live_lesson_changed_is_not_published(live):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    at = clock.now() + timedelta(minutes=10)
    live_drafts.schedule_live_draft(draft_id=draft.pk, at=at)
    services.set_published(lesson_ids=[live.pk], published=False)  # a live change

    with time_machine.travel(at + timedelta(seconds=1), tick=False):
        assert tasks.publish_due_lessons() == 0

    draft.refresh_from_db()
    assert draft.draft_publish_at is None  # not retried every minute; the editor sees it


def test_a_schedule_in_the_past_is_refused(live):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)

    with pytest.raises(live_drafts.InvalidField):
        live_drafts.schedule_live_draft(draft_id=draft.pk, at=clock.now() - timedelta(minutes=1))
