"""Spaced review: every check a learner answers becomes a card, scheduled by FSRS (the `fsrs`
package: reviews/scheduling.py), and every review is logged for the optimizer and the export."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from learning_platform import clock


class ReviewCard(models.Model):
    """One learner's card for one check (a block of kind "check"): the FSRS card state as the
    library keeps it (`state`, `step`, `stability`, `difficulty`, `due`, `last_review`), one row
    per learner and check, settled by the unique constraint."""

    class State(models.IntegerChoices):
        # fsrs.State's values.
        LEARNING = 1, "Learning"
        REVIEW = 2, "Review"
        RELEARNING = 3, "Relearning"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    check_block = models.ForeignKey(
        "lessons.Block", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    # The check's lesson and quest when the card was made: the queue shows published lessons
    # only, and a quest's fitted parameters schedule its cards.
    lesson = models.ForeignKey(
        "lessons.Lesson", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    quest = models.ForeignKey("lessons.Quest", on_delete=models.CASCADE, related_name="+")
    state = models.PositiveSmallIntegerField(choices=State.choices, default=State.LEARNING)
    step = models.PositiveSmallIntegerField(null=True, blank=True)
    stability = models.FloatField(null=True, blank=True)
    difficulty = models.FloatField(null=True, blank=True)
    due = models.DateTimeField()
    last_review = models.DateTimeField(null=True, blank=True)
    reps = models.PositiveIntegerField(default=0)
    lapses = models.PositiveIntegerField(default=0)
    # The learner's local day its last review paid XP: a card pays once a day.
    xp_day = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(default=clock.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "check_block"], name="reviews_card_once"),
        ]
        indexes = [
            # The queue: a learner's due cards in the queue's order (due, then id), read up to
            # its LIMIT with no sort; the summary: all of a learner's cards. On PostgreSQL it
            # carries what both read of a card, so neither visits the table's pages (a
            # learner's cards, made over months, lie on as many pages as there are cards).
            models.Index(
                fields=["user", "due", "id"],
                include=["check_block", "lesson", "reps", "lapses"],
                name="reviews_card_queue",
            ),
        ]

    def __str__(self) -> str:
        return f"Card of check {self.check_block_id} for learner {self.user_id}"


class ReviewLog(models.Model):
    """One review of a card, as FSRS tools read it (rating, state before, time, duration).

    Reviews come from the lesson (its answers until the check is passed) and from the Review
    page. `event_id` is the device's id of a review answered offline: synced twice, it is
    logged (and scheduled) once. `day` is the learner's local day of a review that paid XP:
    a card pays once a day, settled by the unique constraint.
    """

    class Source(models.TextChoices):
        LESSON = "lesson", "Lesson"
        REVIEW = "review", "Review"

    class Rating(models.IntegerChoices):
        # fsrs.Rating's values.
        AGAIN = 1, "Again"
        HARD = 2, "Hard"
        GOOD = 3, "Good"
        EASY = 4, "Easy"

    class StateBefore(models.IntegerChoices):
        # The review_state of FSRS tools' CSV: the card's state when it was reviewed.
        NEW = 0, "New"
        LEARNING = 1, "Learning"
        REVIEW = 2, "Review"
        RELEARNING = 3, "Relearning"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    card = models.ForeignKey(ReviewCard, on_delete=models.CASCADE, related_name="logs")
    quest = models.ForeignKey(
        "lessons.Quest", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    source = models.CharField(max_length=10, choices=Source.choices)
    rating = models.PositiveSmallIntegerField(choices=Rating.choices)
    state_before = models.PositiveSmallIntegerField(choices=StateBefore.choices)
    correct = models.BooleanField()
    reviewed_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    # What the review scheduled.
    due_after = models.DateTimeField()
    stability_after = models.FloatField()
    difficulty_after = models.FloatField()
    xp_awarded = models.PositiveSmallIntegerField(default=0)
    day = models.DateField(null=True, blank=True)
    event_id = models.CharField(max_length=64, blank=True)
    device_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=clock.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "event_id"],
                condition=~Q(event_id=""),
                name="reviews_log_event_once",
            ),
            models.UniqueConstraint(
                fields=["card", "day"], condition=Q(day__isnull=False), name="reviews_log_xp_daily"
            ),
            models.CheckConstraint(
                condition=Q(rating__gte=1, rating__lte=4), name="reviews_rating"
            ),
        ]
        indexes = [
            # The optimizer and the export read a quest's logs in time order.
            models.Index(fields=["quest", "reviewed_at"], name="reviews_log_quest_at"),
        ]

    def __str__(self) -> str:
        return f"Review of card {self.card_id} ({self.get_rating_display()})"


class ParameterFit(models.Model):
    """One fit of FSRS parameters to a quest's review logs (fsrs-rs-python), with how the fit
    and the defaults predicted the held-out logs (the latest reviews). Cards of the quest are
    scheduled with the latest adopted fit, or the defaults."""

    quest = models.ForeignKey("lessons.Quest", on_delete=models.CASCADE, related_name="+")
    fitted_at = models.DateTimeField()
    parameters = models.JSONField()
    reviews = models.PositiveIntegerField(help_text="Review logs read.")
    train_items = models.PositiveIntegerField()
    test_items = models.PositiveIntegerField()
    log_loss = models.FloatField(help_text="The fitted parameters on the held-out logs.")
    rmse = models.FloatField(help_text="RMSE (bins) of the fitted parameters, held-out logs.")
    default_log_loss = models.FloatField(help_text="The default parameters, same logs.")
    default_rmse = models.FloatField(help_text="RMSE (bins) of the defaults, same logs.")
    adopted = models.BooleanField(
        help_text="The fit beat the defaults on the held-out logs: it schedules the quest's cards."
    )
    seconds = models.FloatField(help_text="How long the fit took.")

    class Meta:
        indexes = [models.Index(fields=["quest", "adopted", "-fitted_at"], name="reviews_fit_use")]
        get_latest_by = "fitted_at"

    def __str__(self) -> str:
        return f"FSRS fit of quest {self.quest_id} at {self.fitted_at:%Y-%m-%d %H:%M}"
