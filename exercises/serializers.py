"""Input and output shapes of the exercises API. Serializers validate and present; they never write."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from exercises import parsing, selectors
from exercises.grading import VERDICTS
from exercises.models import Exercise, Submission, SubmissionFormat, SubmissionStatus
from exercises.specs import example_table
from learning_platform.api.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from learning_platform.markdown import render_markdown
from lessons.selectors import Lesson
from progress.serializers import NewAchievementSerializer


class SubmissionInputSerializer(serializers.Serializer[Any]):
    format = serializers.ChoiceField(
        choices=SubmissionFormat.choices, help_text="How `content` is written."
    )
    content = StrictCharField(
        trim_whitespace=False,
        help_text="The table as pasted: at most 64 KiB, 200 rows and 32 columns.",
    )
    notes = StrictCharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=2000,
        help_text="Anything the learner wants to say about the table; not graded.",
    )


class SubmissionAcceptedSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    exercise = serializers.IntegerField(source="exercise_id")
    status = serializers.ChoiceField(choices=SubmissionStatus.choices)
    created_at = serializers.DateTimeField()
    url = serializers.HyperlinkedIdentityField(
        view_name="submission-detail",
        lookup_url_kwarg="submission_id",
        help_text="The submission to poll until it is graded (also the `Location` header).",
    )


class CellFeedbackSerializer(serializers.Serializer[Any]):
    column = serializers.CharField(help_text="The exercise's name for the column.")
    submitted = serializers.CharField(help_text="The text of the cell as submitted.")
    verdict = serializers.ChoiceField(
        choices=VERDICTS,
        help_text="`unchecked`: the row's model is unknown or repeated, or the catalogue "
        "lacks this figure.",
    )
    expected = serializers.IntegerField(
        allow_null=True, help_text="The reference figure; null until the exercise is passed."
    )
    hint = serializers.CharField(
        allow_null=True,
        help_text="The editor's hint for this column, when the cell is `missing` or "
        "`incorrect` and the column has one; else null (an `unparseable` cell, not a number, "
        "counts as wrong and needs no hint about the figure).",
    )


class RowFeedbackSerializer(serializers.Serializer[Any]):
    row = serializers.IntegerField(help_text="1 for the first row under the header.")
    name = serializers.CharField(help_text="The model name as submitted.")
    model = serializers.CharField(
        allow_null=True, help_text="The catalogue model it matched; null when unknown."
    )
    duplicate = serializers.BooleanField(help_text="A model already given in an earlier row.")
    cells = CellFeedbackSerializer(many=True)


class ColumnMatchSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    headers = serializers.ListField(
        child=serializers.CharField(),
        help_text="The submitted headers read as this column (none: the column is missing).",
    )


class FeedbackSerializer(serializers.Serializer[Any]):
    key_header = serializers.CharField(allow_null=True)
    columns = ColumnMatchSerializer(many=True)
    correct = serializers.IntegerField()
    checked = serializers.IntegerField(
        help_text="Cells counted for the score, including those of required models not given."
    )
    models_recognised = serializers.IntegerField()
    rows = RowFeedbackSerializer(many=True)


class SubmissionListItemSerializer(serializers.ModelSerializer[Submission]):
    """Context: `hints` ({column name: hint}, from `selectors.column_hints`) and, when the view
    knows it, `learner_passed` (whether the learner passed this exercise with any attempt)."""

    exercise = serializers.IntegerField(source="exercise_id")
    # Declared, not derived from the model: the derived maximum is the database's integer range
    # (32 bits on PostgreSQL, 64 on SQLite), and the schema must not depend on the database.
    xp_awarded = serializers.IntegerField(min_value=0, required=False)
    expected_revealed = serializers.SerializerMethodField(
        help_text="Whether the cells' `expected` values are shown: once the learner has passed "
        "the exercise, on every graded attempt."
    )
    feedback = serializers.SerializerMethodField()

    class Meta:
        model = Submission
        fields: tuple[str, ...] = (
            "id",
            "exercise",
            "format",
            "status",
            "score",
            "passed",
            "xp_awarded",
            "summary",
            "created_at",
            "graded_at",
            "expected_revealed",
            "feedback",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Both method fields ask; the answer may cost a query, so it is asked once each.
        self._reveals_known: dict[int, bool] = {}

    def get_expected_revealed(self, submission: Submission) -> bool:
        if submission.id not in self._reveals_known:
            self._reveals_known[submission.id] = selectors.reveals_expected_values(
                submission=submission, learner_passed=self.context.get("learner_passed")
            )
        return self._reveals_known[submission.id]

    @extend_schema_field(FeedbackSerializer(allow_null=True))
    def get_feedback(self, submission: Submission) -> dict[str, Any] | None:
        return selectors.feedback_for_learner(
            submission=submission,
            reveal=self.get_expected_revealed(submission),
            hints=self.context.get("hints", {}),
        )


class SubmissionDetailSerializer(SubmissionListItemSerializer):
    class Meta(SubmissionListItemSerializer.Meta):
        fields = (*SubmissionListItemSerializer.Meta.fields, "content", "notes")


class ExerciseColumnSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    field = serializers.CharField(source="reference_field")
    synonyms = serializers.ListField(child=serializers.CharField())
    hint = serializers.CharField(
        help_text="The editor's hint for this column, shown when a learner's cell in it is "
        "missing, unreadable or wrong; empty when there is none."
    )


class ExerciseDetailSerializer(serializers.ModelSerializer[Exercise]):
    """Context: `passed` (bool or None for anonymous visitors), `known_models` (names)."""

    lesson: serializers.SlugRelatedField[Lesson] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    prompt_html = serializers.SerializerMethodField()
    key_column = serializers.SerializerMethodField()
    columns = ExerciseColumnSerializer(many=True)
    pass_mark = serializers.FloatField()
    passed = serializers.SerializerMethodField()
    known_models = serializers.SerializerMethodField()
    limits = serializers.SerializerMethodField(
        help_text="What a submission may hold (the server refuses more): `max_bytes` of UTF-8 "
        "content, `max_rows` under the header."
    )
    example = serializers.SerializerMethodField(
        help_text="A table in the exercise's columns with one made-up row, to show the shape "
        "of an answer (the box's placeholder); never an answer itself."
    )

    class Meta:
        model = Exercise
        fields = (
            "id",
            "slug",
            "lesson",
            "title",
            "kind",
            "prompt",
            "prompt_html",
            "key_column",
            "columns",
            "rows_required",
            "pass_mark",
            "xp",
            "passed",
            "known_models",
            "limits",
            "example",
        )

    def get_prompt_html(self, exercise: Exercise) -> str:
        return render_markdown(exercise.prompt, profile="lesson")

    @extend_schema_field(
        {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "synonyms": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["name", "synonyms"],
        }
    )
    def get_key_column(self, exercise: Exercise) -> dict[str, Any]:
        return {"name": exercise.key_column, "synonyms": list(exercise.key_synonyms)}

    @extend_schema_field(serializers.BooleanField(allow_null=True))
    def get_passed(self, exercise: Exercise) -> bool | None:
        return self.context.get("passed")

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_known_models(self, exercise: Exercise) -> list[str]:
        known: list[str] = self.context.get("known_models", [])
        return known

    @extend_schema_field(
        {
            "type": "object",
            "properties": {"max_bytes": {"type": "integer"}, "max_rows": {"type": "integer"}},
            "required": ["max_bytes", "max_rows"],
        }
    )
    def get_limits(self, exercise: Exercise) -> dict[str, int]:
        return {"max_bytes": parsing.MAX_BYTES, "max_rows": parsing.MAX_ROWS}

    def get_example(self, exercise: Exercise) -> str:
        return example_table(
            key_column=exercise.key_column, columns=[c.name for c in exercise.columns.all()]
        )


# --- Checks ------------------------------------------------------------------------------------


class CheckAnswerInputSerializer(serializers.Serializer[Any]):
    answer = serializers.DictField(
        help_text='numeric: {"value": "12,288"}; choice: {"options": ["<option id>", ...]}; '
        'ordering: {"items": ["<item id>", ...]} (every item, in the order given).'
    )


class CheckMarkSerializer(serializers.Serializer[Any]):
    correct = serializers.BooleanField()
    explanation = serializers.CharField(required=False)


class LessonChecksSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    checks_passed = serializers.IntegerField()
    checks_total = serializers.IntegerField()
    complete = serializers.BooleanField(help_text="Every check (and table exercise) passed.")
    completed_now = serializers.BooleanField(help_text="This answer completed the lesson.")


class CheckResultSerializer(serializers.Serializer[Any]):
    correct = serializers.BooleanField()
    feedback = serializers.ListField(
        child=serializers.CharField(),
        help_text="What the editor wrote for this kind of mistake (or how many items are in "
        "place); empty when right or when no feedback fits.",
    )
    marks = serializers.DictField(
        child=CheckMarkSerializer(),
        help_text="Per option or item id: whether it is right (choice: with its explanation).",
    )
    explanation = serializers.CharField(
        allow_null=True, help_text="Why the answer is what it is: once right or revealed."
    )
    tries = serializers.IntegerField(help_text="Answers given so far (0 when signed out).")
    wrong_tries = serializers.IntegerField()
    can_reveal = serializers.BooleanField(help_text="The learner may now reveal the answer.")
    passed = serializers.BooleanField()
    revealed = serializers.BooleanField(help_text="The answer was revealed: the check pays no XP.")
    xp_awarded = serializers.IntegerField(help_text="XP this answer paid (its check's share).")
    lesson = LessonChecksSerializer(allow_null=True, help_text="Null when signed out.")
    new_achievements = NewAchievementSerializer(many=True)


class CheckRevealSerializer(serializers.Serializer[Any]):
    solution = serializers.JSONField(help_text="The right answer, in the answer's own shape.")
    explanation = serializers.CharField()


class CheckStandingSerializer(serializers.Serializer[Any]):
    check = serializers.IntegerField(help_text="The check's id (its block's).")
    tries = serializers.IntegerField()
    wrong_tries = serializers.IntegerField()
    passed = serializers.BooleanField()
    passed_first_try = serializers.BooleanField()
    revealed = serializers.BooleanField()
    can_reveal = serializers.BooleanField()
    xp_awarded = serializers.IntegerField(help_text="XP this check paid (0 until passed).")


class LessonCheckStandingsSerializer(serializers.Serializer[Any]):
    lesson = serializers.CharField()
    checks = CheckStandingSerializer(many=True)


class StartedLessonsSerializer(serializers.Serializer[Any]):
    started = serializers.ListField(
        child=serializers.CharField(),
        help_text="Slugs of the lessons whose checks the learner has answered at least once.",
    )


class SyncAnswerSerializer(serializers.Serializer[Any]):
    id = StrictCharField(max_length=64, help_text="The device's id of this answer (a UUID).")
    check = StrictIntegerField(help_text="The check's id.")
    # An answer is an object in every kind: the schema says so, and null is a 400.
    answer = serializers.DictField()
    answered_at = serializers.DateTimeField()
    revealed = StrictBooleanField(
        default=False, help_text="The learner revealed the answer before it: it pays no XP."
    )


class SyncAnswersInputSerializer(serializers.Serializer[Any]):
    device_id = StrictCharField(max_length=64)
    answers = SyncAnswerSerializer(many=True, help_text="At most 500 answers (413 beyond).")


class RejectedAnswerSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    reason = serializers.ChoiceField(
        choices=["unknown_check", "invalid_answer", "future_time", "too_old"]
    )
    detail = serializers.CharField()


class SyncAnswersResultSerializer(serializers.Serializer[Any]):
    accepted = serializers.IntegerField(help_text="Answers recorded now.")
    duplicates = serializers.IntegerField(help_text="Answers recorded before (resent).")
    rejected = RejectedAnswerSerializer(many=True)
    xp_awarded = serializers.IntegerField()
    lessons_completed = serializers.ListField(child=serializers.CharField())
    new_achievements = NewAchievementSerializer(many=True)
