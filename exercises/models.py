"""Exercises attached to lessons, the learners' submissions, and the reference catalogue.

The invariants that matter live in the database: one column name per exercise, one catalogue
entry per model name, a pass mark between 0 and 1, a status from the known set.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from learning_platform import clock
from learning_platform.slugs import slug_validator


def validate_name_list(value: object) -> None:
    """A JSON list of short, non-empty names (synonyms, aliases)."""
    if not isinstance(value, list) or not all(
        isinstance(name, str) and name.strip() and len(name) <= 100 for name in value
    ):
        raise ValidationError('Enter a JSON list of names, e.g. ["hidden_size", "n_embd"].')


class ReferenceField(models.TextChoices):
    """The figures of a model's architecture an exercise column can be checked against."""

    D_MODEL = "d_model", "d_model (hidden size)"
    N_LAYERS = "n_layers", "Layers"
    N_HEADS = "n_heads", "Attention heads"
    N_KV_HEADS = "n_kv_heads", "Key/value heads"
    VOCAB_SIZE = "vocab_size", "Vocabulary size"
    INTERMEDIATE_SIZE = "intermediate_size", "Intermediate (FFN) size"


class ModelReference(models.Model):
    """One model's architecture, read from its published config.json."""

    name = models.CharField(max_length=100, unique=True, help_text="Canonical name, e.g. GPT-2.")
    aliases = models.JSONField(
        default=list,
        blank=True,
        validators=[validate_name_list],
        help_text='Other names learners use, e.g. ["gpt2-small", "GPT-2 124M"]. Case, '
        "spacing, punctuation, org prefixes (meta-llama/) and -Instruct/-chat/-hf suffixes "
        "are ignored anyway.",
    )
    family = models.CharField(max_length=60, blank=True)
    hf_repo = models.CharField("Hugging Face repository", max_length=200, blank=True)
    d_model = models.PositiveIntegerField("d_model (hidden size)")
    n_layers = models.PositiveIntegerField("layers")
    n_heads = models.PositiveIntegerField("attention heads")
    n_kv_heads = models.PositiveIntegerField("key/value heads", null=True, blank=True)
    vocab_size = models.PositiveIntegerField("vocabulary size")
    intermediate_size = models.PositiveIntegerField(
        "intermediate (FFN) size", null=True, blank=True
    )
    source = models.CharField(
        max_length=500, blank=True, help_text="Where the figures were read from."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("family", "name")
        verbose_name = "reference model"

    def __str__(self) -> str:
        return self.name


class Exercise(models.Model):
    """A graded task at the end of a lesson. Only tables are graded for now."""

    class Kind(models.TextChoices):
        TABLE = "table", "Table"

    lesson = models.ForeignKey("lessons.Lesson", on_delete=models.CASCADE, related_name="exercises")
    slug = models.SlugField(max_length=100, unique=True, validators=[slug_validator])
    title = models.CharField(max_length=200)
    prompt = models.TextField(help_text="Markdown.")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.TABLE)
    key_column = models.CharField(
        max_length=60, default="model", help_text="The column naming each row's model."
    )
    key_synonyms = models.JSONField(
        default=list,
        blank=True,
        validators=[validate_name_list],
        help_text='Other headers accepted for the key column, e.g. ["name", "model_id"].',
    )
    rows_required = models.PositiveSmallIntegerField(
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(200)],
        help_text="Distinct models from the reference catalogue a passing table must have.",
    )
    pass_mark = models.DecimalField(
        max_digits=3,
        decimal_places=2,
        default=0.8,
        validators=[MinValueValidator(0), MaxValueValidator(1)],
        help_text="Share of the checked cells that must be right (0 to 1).",
    )
    xp = models.PositiveIntegerField("XP value", default=50, validators=[MaxValueValidator(10_000)])
    position = models.PositiveIntegerField(default=0)
    # On the copy of an exercise in a draft of a live lesson: the live exercise it rewrites,
    # which publishing the draft updates in place (exercises.services.live_drafts).
    draft_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, editable=False, related_name="+"
    )
    created_at = models.DateTimeField(default=clock.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(excluded_fields=["updated_at", "created_at", "draft_of"])

    class Meta:
        ordering = ("lesson", "position", "id")
        constraints = [
            models.CheckConstraint(
                condition=Q(pass_mark__gte=0) & Q(pass_mark__lte=1),
                name="exercises_exercise_pass_mark_range",
            ),
            models.CheckConstraint(
                condition=Q(rows_required__gte=1), name="exercises_exercise_rows_required_positive"
            ),
            models.CheckConstraint(condition=Q(kind__in=["table"]), name="exercises_exercise_kind"),
        ]

    def __str__(self) -> str:
        return self.title


class ExerciseColumn(models.Model):
    """A column a table exercise asks for, checked against one figure of the catalogue."""

    exercise = models.ForeignKey(Exercise, on_delete=models.CASCADE, related_name="columns")
    position = models.PositiveIntegerField(default=0)
    name = models.CharField(max_length=60, help_text="Canonical header, e.g. d_model.")
    reference_field = models.CharField(max_length=20, choices=ReferenceField.choices)
    synonyms = models.JSONField(
        default=list,
        blank=True,
        validators=[validate_name_list],
        help_text='Other headers accepted, e.g. ["hidden_size", "n_embd", "dim"]. Case, '
        "spaces and punctuation are ignored.",
    )
    tolerance = models.DecimalField(
        max_digits=14,
        decimal_places=3,
        default=0,
        validators=[MinValueValidator(0)],
        help_text="Largest accepted difference from the reference figure (0: exact).",
    )
    hint = models.TextField(
        blank=True,
        max_length=500,
        help_text="Shown beside a learner's cell in this column when it is missing, "
        "unreadable or wrong, e.g. where a config.json keeps the figure under another name.",
    )

    class Meta:
        ordering = ("exercise", "position", "id")
        constraints = [
            models.UniqueConstraint(
                fields=["exercise", "name"], name="exercises_column_unique_name"
            ),
            models.CheckConstraint(
                condition=Q(tolerance__gte=0), name="exercises_column_tolerance_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SubmissionFormat(models.TextChoices):
    CSV = "csv", "CSV"
    TSV = "tsv", "TSV"
    MARKDOWN = "markdown", "Markdown"
    JSON = "json", "JSON"


class SubmissionStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    GRADING = "grading", "Grading"
    GRADED = "graded", "Graded"
    INVALID = "invalid", "Invalid"


class Submission(models.Model):
    """One attempt at an exercise. queued -> grading -> graded | invalid."""

    # No index of their own: each leads a composite index below, which serves every lookup by
    # it; a submission's row is written twice on its way to a grade (claimed, then graded),
    # and each index is one more entry to write both times.
    exercise = models.ForeignKey(
        Exercise, on_delete=models.CASCADE, related_name="submissions", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="submissions",
        db_index=False,
    )
    format = models.CharField(max_length=10, choices=SubmissionFormat.choices)
    content = models.TextField()
    notes = models.TextField(blank=True)
    status = models.CharField(
        max_length=10, choices=SubmissionStatus.choices, default=SubmissionStatus.QUEUED
    )
    # Incremented by the worker that starts grading: a submission that kills the grader every
    # time ends invalid instead of being handed out forever.
    attempts = models.PositiveSmallIntegerField(default=0)
    score = models.FloatField(null=True, blank=True)
    passed = models.BooleanField(default=False)
    xp_awarded = models.PositiveIntegerField(default=0)
    summary = models.TextField(blank=True)
    feedback = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=clock.now, editable=False)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    grading_started_at = models.DateTimeField(null=True, blank=True)
    graded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = [
            models.Index(fields=["user", "exercise", "-created_at"], name="exercises_sub_user_ex"),
            models.Index(
                fields=["user", "exercise"],
                condition=Q(passed=True),
                name="exercises_sub_passed",
            ),
            # The admin's analytics: each exercise's latest graded submissions, and each
            # learner's first try and first pass (index-only).
            models.Index(
                fields=["exercise", "-graded_at", "-id"],
                condition=Q(status="graded"),
                name="exercises_sub_graded_recent",
            ),
            models.Index(
                fields=["exercise", "user", "created_at", "passed"],
                name="exercises_sub_ex_user_at",
            ),
            # The sweep looks only at the few submissions not yet settled.
            models.Index(
                fields=["status", "enqueued_at"],
                condition=Q(status__in=["queued", "grading"]),
                name="exercises_sub_unsettled",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["queued", "grading", "graded", "invalid"]),
                name="exercises_submission_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(format__in=["csv", "tsv", "markdown", "json"]),
                name="exercises_submission_format_valid",
            ),
            models.CheckConstraint(
                condition=Q(score__isnull=True) | (Q(score__gte=0) & Q(score__lte=1)),
                name="exercises_submission_score_range",
            ),
            models.CheckConstraint(
                condition=Q(passed=False) | Q(status="graded"),
                name="exercises_submission_passed_only_graded",
            ),
        ]

    def __str__(self) -> str:
        return f"Submission #{self.pk} ({self.status})"


class CheckState(models.Model):
    """Where a learner stands with one check of a lesson (a block of kind "check").

    One row per learner and check, settled by the unique constraint: tries counted, the first
    right answer (which pays the check's XP, unless the answer was revealed first).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="check_states"
    )
    check_block = models.ForeignKey(
        "lessons.Block", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    lesson = models.ForeignKey(
        "lessons.Lesson", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    tries = models.PositiveIntegerField(default=0)
    wrong_tries = models.PositiveIntegerField(default=0)
    first_answered_at = models.DateTimeField()
    passed_at = models.DateTimeField(null=True, blank=True)
    passed_first_try = models.BooleanField(default=False)
    revealed_at = models.DateTimeField(null=True, blank=True)
    xp_awarded = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "check_block"], name="exercises_checkstate_once"
            ),
            models.CheckConstraint(
                condition=Q(passed_first_try=False) | Q(passed_at__isnull=False),
                name="exercises_checkstate_first_try_passed",
            ),
        ]
        indexes = [models.Index(fields=["user", "lesson"], name="exercises_checkstate_lesson")]

    def __str__(self) -> str:
        return f"Check {self.check_block_id} of learner {self.user_id}"


class CheckAnswer(models.Model):
    """One answer to a check, kept for the analytics (the common wrong answers) and the
    review to come. `event_id` is the device's id of an answer synced from it: an answer
    synced twice is recorded once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    check_block = models.ForeignKey(
        "lessons.Block", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    answer = models.JSONField()
    # The answer's canonical text: equal answers group under it.
    answer_key = models.CharField(max_length=200)
    correct = models.BooleanField()
    # Which expected wrong answer it matched ("mistake-2", "option-<id>"), or empty.
    mistake = models.CharField(max_length=40, blank=True)
    revealed = models.BooleanField(default=False)
    event_id = models.CharField(max_length=64, blank=True)
    device_id = models.CharField(max_length=64, blank=True)
    answered_at = models.DateTimeField()
    created_at = models.DateTimeField(default=clock.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "event_id"],
                condition=~Q(event_id=""),
                name="exercises_checkanswer_event_once",
            ),
        ]
        indexes = [
            models.Index(fields=["check_block", "correct"], name="exercises_checkanswer_block"),
            models.Index(fields=["user", "check_block"], name="exercises_checkanswer_user"),
        ]

    def __str__(self) -> str:
        return f"Answer to check {self.check_block_id} ({'right' if self.correct else 'wrong'})"
