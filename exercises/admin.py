from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db import models
from django.db.models import Q, QuerySet
from django.forms import ModelForm, Textarea
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from exercises.models import Exercise, ExerciseColumn, ModelReference, Submission
from exercises.services.grading_cache import forget_catalogue
from exercises.services.queueing import enqueue_grading
from exercises.specs import REFERENCE_FIELDS
from learning_platform.admin_lists import LearnerSearchAdmin
from lessons.admin import LessonAdmin
from lessons.blocks import block_text
from lessons.models import Lesson


# ModelAdmin, its inlines and ModelForm are generic in django-stubs only: at run time they take
# no type argument.
class ExerciseColumnInline(admin.TabularInline):  # type: ignore[type-arg]
    model = ExerciseColumn
    extra = 0
    ordering = ("position", "id")
    fields = ("position", "name", "reference_field", "synonyms", "tolerance", "hint")
    # A hint is a sentence or two: a small box keeps the table of columns readable.
    formfield_overrides = {models.TextField: {"widget": Textarea(attrs={"rows": 2, "cols": 40})}}


class ExerciseForm(forms.ModelForm):  # type: ignore[type-arg]  # as ExerciseColumnInline
    """An exercise's prompt stored as the lesson's texts are (lessons.blocks.block_text): a
    save without changes changes nothing, and lesson files keep a plain `|` block."""

    def clean_prompt(self) -> str:
        return block_text(self.cleaned_data.get("prompt") or "")


class ExerciseInline(admin.StackedInline):  # type: ignore[type-arg]  # as ExerciseColumnInline
    """The lesson's exercises on the lesson's page; columns are edited on the exercise's own
    page (an inline cannot nest another inline), reached through the `columns` link."""

    model = Exercise
    form = ExerciseForm
    extra = 0
    ordering = ("position", "id")
    fields = (
        ("title", "slug", "position"),
        "prompt",
        ("key_column", "key_synonyms"),
        ("rows_required", "pass_mark", "xp"),
        "columns_link",
    )
    readonly_fields = ("columns_link",)
    prepopulated_fields = {"slug": ("title",)}
    show_change_link = True

    @admin.display(description="Columns")
    def columns_link(self, exercise: Exercise) -> str:
        if not exercise.pk:
            return "Save the lesson first, then add the columns on the exercise's page."
        names = ", ".join(c.name for c in exercise.columns.all()) or "none yet"
        url = reverse("admin:exercises_exercise_change", args=[exercise.pk])
        return format_html('{} — <a href="{}">edit columns</a>', names, url)


# The lesson's page edits its exercises too: lessons knows nothing of exercises, so exercises
# (above it) registers the lesson's admin again with its inline added.
admin.site.unregister(Lesson)


@admin.register(Lesson)
class LessonWithExercisesAdmin(LessonAdmin):
    inlines = [*LessonAdmin.inlines, ExerciseInline]


@admin.register(Exercise)
class ExerciseAdmin(SimpleHistoryAdmin):  # type: ignore[misc]  # simple_history has no types
    list_display = ("title", "lesson", "kind", "rows_required", "pass_mark", "xp")
    list_select_related = ("lesson",)
    list_filter = ("kind", "lesson__quest")
    search_fields = ("title", "slug", "lesson__title", "lesson__slug")
    search_help_text = "Part of an exercise's title or slug, or of its lesson's title or slug."
    autocomplete_fields = ("lesson",)
    prepopulated_fields = {"slug": ("title",)}
    readonly_fields = ("created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("lesson", "title", "slug", "kind", "position", "prompt")}),
        (
            "Grading",
            {"fields": (("key_column", "key_synonyms"), ("rows_required", "pass_mark", "xp"))},
        ),
        ("Status", {"fields": ("created_at", "updated_at")}),
    )
    inlines = [ExerciseColumnInline]


@admin.register(ModelReference)
class ModelReferenceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # as ExerciseColumnInline
    list_display = ("name", "family", *REFERENCE_FIELDS)
    list_filter = ("family",)
    search_fields = ("name", "aliases", "family", "hf_repo")
    search_help_text = "Part of a model's name, alias, family or Hugging Face repository."
    readonly_fields = ("updated_at",)
    fieldsets = (
        (None, {"fields": ("name", "aliases", "family", "hf_repo")}),
        (
            "Figures (from config.json)",
            {
                "fields": (
                    ("d_model", "n_layers"),
                    ("n_heads", "n_kv_heads"),
                    ("vocab_size", "intermediate_size"),
                )
            },
        ),
        ("Source", {"fields": ("source", "updated_at")}),
    )

    # Graders elsewhere notice an edit within seconds; one in this process, at once.
    def save_model(
        self,
        request: HttpRequest,
        obj: ModelReference,
        form: ModelForm[ModelReference],
        change: bool,
    ) -> None:
        super().save_model(request, obj, form, change)
        forget_catalogue()

    def delete_model(self, request: HttpRequest, obj: ModelReference) -> None:
        super().delete_model(request, obj)
        forget_catalogue()

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[ModelReference]) -> None:
        super().delete_queryset(request, queryset)
        forget_catalogue()


@admin.register(Submission)
class SubmissionAdmin(LearnerSearchAdmin):
    """Read-only: submissions change only through grading."""

    list_display = ("id", "exercise", "user", "format", "status", "score", "passed", "created_at")
    # A date filter, not date_hierarchy: its year links scan every submission.
    list_filter = ("status", "passed", "format", "created_at")
    list_select_related = ("exercise", "user")
    search_help_text = "Part of a learner's e-mail address or name, or of an exercise's title."
    ordering = ("-id",)  # newest first, along the primary key (no index on created_at)
    actions = ("requeue",)
    readonly_fields = [f.name for f in Submission._meta.fields]

    def extra_search_conditions(self, term: str) -> Q | None:
        exercises = Exercise.objects.filter(title__icontains=term).values_list("id", flat=True)
        return Q(exercise_id__in=list(exercises))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Submission | None = None) -> bool:
        return False

    @admin.action(description="Grade again the selected queued submissions", permissions=["view"])
    def requeue(self, request: HttpRequest, queryset: QuerySet[Submission]) -> None:
        ids = list(queryset.filter(status="queued").values_list("id", flat=True))
        sent = sum(enqueue_grading(submission_id=i) for i in ids)
        self.message_user(
            request, f"Enqueued {sent} of {len(ids)} queued submission(s).", messages.INFO
        )
