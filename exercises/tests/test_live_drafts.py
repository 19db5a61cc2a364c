"""A lesson's exercise in a draft of the live lesson (exercises.services.live_drafts, run by
lessons' hooks): edited in the draft, put live in place when the draft is published."""

from decimal import Decimal

import pytest
from django.urls import reverse

from exercises.models import Exercise, ExerciseColumn
from exercises.tests.conftest import post_table
from exercises.tests.factories import ExerciseFactory, SubmissionFactory
from lessons import live_drafts, services
from lessons.models import Lesson
from lessons.tests.admin_pages import posted_unchanged
from lessons.tests.factories import LessonFactory, ProseBlockFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def live():
    lesson = LessonFactory(slug="live-lesson", title="Live title", published=True)
    ProseBlockFactory(lesson=lesson, position=1, markdown="Live words.\n")
    lesson.save()  # after its blocks, as the admin saves: this record closes the version
    return lesson


@pytest.fixture
def exercise(live):
    exercise = ExerciseFactory(lesson=live, slug="live-table", title="Live table", xp=60)
    live.version += 1
    live.save()  # as the admin saves the lesson's page: its record closes the version
    return exercise


def _latest_version(lesson: Lesson):
    return Lesson.history.filter(id=lesson.pk).order_by("-history_date", "-history_id").first()


def test_making_a_draft_copies_the_exercise_and_its_columns(live, exercise):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)

    copy = Exercise.objects.get(lesson=draft)
    assert copy.pk != exercise.pk
    assert copy.draft_of_id == exercise.pk
    assert copy.slug == f"draft-{exercise.pk}-live-table"
    assert (copy.title, copy.prompt, copy.xp) == ("Live table", exercise.prompt, 60)
    assert list(copy.columns.values_list("name", "reference_field")) == list(
        exercise.columns.values_list("name", "reference_field")
    )
    assert Exercise.objects.filter(lesson=live).get() == exercise  # the live one untouched


def test_a_draft_of_a_lesson_without_an_exercise_has_none(live):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)

    assert not Exercise.objects.filter(lesson=draft).exists()


def test_publishing_updates_the_live_exercise_in_place_keeping_its_submissions(live, exercise):
    submission = SubmissionFactory(exercise=exercise)
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    copy = Exercise.objects.get(lesson=draft)
    copy.title, copy.xp, copy.pass_mark = "Rewritten table", 80, Decimal("0.90")
    copy.save()
    copy.columns.filter(name="intermediate_size").delete()
    ExerciseColumn.objects.filter(exercise=copy, name="d_model").update(hint="Look at n_embd.")

    live_drafts.publish_live_draft(draft_id=draft.pk)

    updated = Exercise.objects.get(lesson=live)
    assert updated.pk == exercise.pk
    assert (updated.slug, updated.title, updated.xp) == ("live-table", "Rewritten table", 80)
    assert updated.pass_mark == Decimal("0.90")
    assert list(updated.columns.values_list("name", flat=True)) == [
        "d_model", "n_layers", "n_heads", "vocab_size",
    ]  # fmt: skip
    assert updated.columns.get(name="d_model").hint == "Look at n_embd."
    assert list(updated.submissions.all()) == [submission]
    assert not Exercise.objects.filter(pk=copy.pk).exists()  # gone with the draft
    record = updated.history.order_by("-history_date", "-history_id").first()
    assert record.history_change_reason.startswith("Published the draft")


def test_an_exercise_added_in_the_draft_moves_to_the_live_lesson(live):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    added = ExerciseFactory(lesson=draft, slug="new-table")

    live_drafts.publish_live_draft(draft_id=draft.pk)

    moved = Exercise.objects.get(lesson=live)
    assert (moved.pk, moved.slug, moved.draft_of_id) == (added.pk, "new-table", None)
    assert moved.columns.count() == 5


def test_a_copy_whose_live_exercise_was_deleted_meanwhile_goes_live_under_its_old_slug(
    live, exercise
):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    copy = Exercise.objects.get(lesson=draft)
    exercise.delete()

    live_drafts.publish_live_draft(draft_id=draft.pk)

    moved = Exercise.objects.get(lesson=live)
    assert (moved.pk, moved.slug) == (copy.pk, "live-table")


def test_an_exercise_removed_in_the_draft_goes_only_without_submissions(live, exercise):
    answered = ExerciseFactory(lesson=live, slug="answered-table", position=2)
    submission = SubmissionFactory(exercise=answered)
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    Exercise.objects.filter(lesson=draft).delete()

    live_drafts.publish_live_draft(draft_id=draft.pk)

    # The unanswered one is deleted; the answered one stays, with its learners' submissions.
    assert list(Exercise.objects.filter(lesson=live)) == [answered]
    assert list(answered.submissions.all()) == [submission]


def test_reverting_to_the_version_before_the_publish_restores_the_old_exercise(live, exercise):
    before = _latest_version(live)
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    Exercise.objects.filter(lesson=draft).update(title="Rewritten table", xp=80)
    live_drafts.publish_live_draft(draft_id=draft.pk)
    assert Exercise.objects.get(pk=exercise.pk).title == "Rewritten table"

    services.revert_lesson(lesson_id=live.pk, history_id=before.history_id)

    restored = Exercise.objects.get(lesson=live)
    assert (restored.pk, restored.slug, restored.title, restored.xp) == (
        exercise.pk, "live-table", "Live table", 60,
    )  # fmt: skip


def test_a_refused_publish_leaves_both_exercises_as_they_were(live, exercise):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    Exercise.objects.filter(lesson=draft).update(title="Rewritten table")
    live.version += 1
    live.save()  # a live save since the draft: publishing is refused

    with pytest.raises(live_drafts.LiveChangedSinceDraft):
        live_drafts.publish_live_draft(draft_id=draft.pk)

    assert Exercise.objects.get(pk=exercise.pk).title == "Live table"
    assert Exercise.objects.get(lesson=draft).title == "Rewritten table"


def test_learners_never_see_or_submit_to_a_drafts_exercise_staff_preview_it(
    live, exercise, catalogue, user_client, staff_client
):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    copy = Exercise.objects.get(lesson=draft)

    assert user_client.get(reverse("exercise-detail", args=[copy.pk])).status_code == 404
    assert post_table(user_client, copy).status_code == 404
    assert not copy.submissions.exists()
    live_page = user_client.get(reverse("lesson-detail", args=[live.slug])).json()
    assert live_page["exercise"]["id"] == exercise.pk
    # Staff previewing the draft in the app get the draft's exercise, not the live one.
    preview = staff_client.get(reverse("lesson-detail", args=[draft.slug])).json()
    assert preview["exercise"]["id"] == copy.pk
    assert staff_client.get(reverse("exercise-detail", args=[copy.pk])).status_code == 200


def test_the_drafts_admin_page_edits_the_drafts_exercise(client, editor, live, exercise):
    draft = live_drafts.make_live_draft(lesson_id=live.pk)
    copy = Exercise.objects.get(lesson=draft)
    change = reverse("admin:lessons_lesson_change", args=[draft.pk])

    page = client.get(change)

    inlines = [inline.formset.model for inline in page.context["inline_admin_formsets"]]
    assert Exercise in inlines
    data = posted_unchanged(page)
    prefix = next(
        inline.formset.prefix
        for inline in page.context["inline_admin_formsets"]
        if inline.formset.model is Exercise
    )
    assert data[f"{prefix}-0-id"] == str(copy.pk)
    data[f"{prefix}-0-title"] = "Edited in the draft"
    response = client.post(change, data)

    assert response.status_code == 302, response.context and response.context["errors"]
    assert Exercise.objects.get(pk=copy.pk).title == "Edited in the draft"
    assert Exercise.objects.get(pk=exercise.pk).title == "Live table"
