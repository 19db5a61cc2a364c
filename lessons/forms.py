"""The admin's block editor: a form per block that shows its kind's fields, a table typed or
pasted as text (shown back as a grid), Markdown with a live preview, a check's spec edited as
a form (kept as JSON in one field). The rules are the shared ones of `lessons.blocks`; the
form only maps them onto the fields the editor sees."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.urls import reverse_lazy

from learning_platform.markdown import render_markdown
from lessons.blocks import (
    BLOCK_TEXT_FIELDS,
    CODE_LANGUAGES,
    EMPTY_BLOCK,
    KIND_FIELDS,
    block_html,
    format_table_text,
    normalised_block_texts,
    parse_table_text,
)
from lessons.checks import (
    CHECK_TYPES_ORDER,
    DEFAULT_REVEAL_AFTER,
    MAX_MISTAKES,
    MAX_OPTIONS,
    MAX_ORDERING_ITEMS,
    MAX_REVEAL_AFTER,
    MIN_OPTIONS,
    MIN_ORDERING_ITEMS,
    UNITS,
    clean_check,
    clean_text,
)
from lessons.history import LessonVersion, changes_since
from lessons.models import Block
from lessons.services import lock_lesson_version

MARKDOWN_PREVIEW_URL = reverse_lazy("admin:lessons_lesson_markdown_preview")
# The table's two stored fields are edited as one text field.
TABLE_FIELDS = ("columns", "rows")


class TableWidget(forms.Textarea):
    """A textarea for pasting (TSV/CSV) with the parsed table rendered as an editable grid."""

    template_name = "admin/lessons/widgets/table.html"

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        try:
            columns, rows = parse_table_text(value or "")
        except ValueError:  # the field's error says why; the text stays for fixing
            columns, rows = [], []
        context["table"] = {"columns": columns, "rows": rows}
        return context


class MarkdownWidget(forms.Textarea):
    """A textarea with the rendered Markdown beside it, refreshed as the editor types."""

    template_name = "admin/lessons/widgets/markdown.html"

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["preview_url"] = str(MARKDOWN_PREVIEW_URL)
        context["preview_html"] = render_markdown(value or "", profile="lesson") if value else ""
        return context


# How a check's spec fields are named in messages (block_errors keys them "spec.<field>").
CHECK_FIELD_LABELS = {
    "key": "Key",
    "type": "Type",
    "explanation": "Explanation",
    "reveal_after": "Wrong tries before “Show answer”",
    "answer": "Answer",
    "tolerance": "Tolerance",
    "relative_tolerance": "Relative tolerance",
    "unit": "Unit",
    "mistakes": "Expected mistakes",
    "options": "Options",
    "items": "Items",
}

CHECK_TYPE_LABELS = {
    "numeric": "Numeric: one number",
    "choice": "Choice: pick the right option(s)",
    "ordering": "Ordering: put items in order",
}


def check_editor_config() -> dict[str, Any]:
    """What the form editor of checks offers, from the rules it edits (lessons.checks)."""
    return {
        "types": [{"value": t, "label": CHECK_TYPE_LABELS[t]} for t in CHECK_TYPES_ORDER],
        "units": list(UNITS),
        "options": {"min": MIN_OPTIONS, "max": MAX_OPTIONS},
        "items": {"min": MIN_ORDERING_ITEMS, "max": MAX_ORDERING_ITEMS},
        "mistakes": {"max": MAX_MISTAKES},
        "reveal_after": {"default": DEFAULT_REVEAL_AFTER, "max": MAX_REVEAL_AFTER},
    }


class CheckSpecWidget(forms.Textarea):
    """The check's spec as JSON (what the server reads, and what works without JavaScript),
    with room for the form editor and the learner's-eye preview the block editor draws.
    Problems found on save travel in `data-errors` ({field: message}) to be shown at their
    control."""

    template_name = "admin/lessons/widgets/check.html"


class CheckSpecField(forms.JSONField):
    """JSON, indented for reading; an empty box is an empty spec (which a check refuses)."""

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return {} if value is None else value

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, str):  # what the editor typed, unreadable: kept for fixing
            return value
        return json.dumps(value, ensure_ascii=False, indent=2)


# ModelForm and BaseInlineFormSet are generic in django-stubs only: at run time they take no
# type argument.
class BlockForm(forms.ModelForm):  # type: ignore[type-arg]
    table = forms.CharField(
        label="Table",
        required=False,
        widget=TableWidget(attrs={"rows": 6, "class": "lp-table-text"}),
        help_text="Paste cells from a spreadsheet (tab-separated) or type CSV; the first line "
        "holds the column headers. Or edit the cells in the grid below.",
    )

    class Meta:
        model = Block
        fields = (
            "kind",
            "markdown",
            "style",
            "caption",
            "title",
            "language",
            "source",
            "spec",
            "position",
        )
        field_classes = {"spec": CheckSpecField}
        labels = {"spec": "Check"}
        widgets = {
            # Set by the block editor's reordering (drag, or move up / move down).
            "position": forms.HiddenInput(attrs={"class": "lp-block-position"}),
            "markdown": MarkdownWidget(attrs={"rows": 10, "class": "lp-markdown-source"}),
            "language": forms.TextInput(attrs={"list": "lp-code-languages", "size": 16}),
            "source": forms.Textarea(attrs={"rows": 8, "class": "lp-code-source"}),
            "spec": CheckSpecWidget(attrs={"rows": 12, "class": "lp-check-spec"}),
        }
        help_texts = {
            "language": "One of: " + ", ".join(CODE_LANGUAGES) + ".",
            "spec": "The question's key, type, answer and feedback (docs/content.md, "
            "“Checks”). The key is unique in the lesson; the curriculum files find the "
            "check by it.",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The saved spec is the initial value (not a second, hidden copy of the JSON).
        self.fields["spec"].show_hidden_initial = False
        if self.instance.pk and self.instance.kind == Block.Kind.TABLE:
            self.initial.setdefault(
                "table", format_table_text(self.instance.columns, self.instance.rows)
            )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        kind: str = cleaned.get("kind", "")
        kept = KIND_FIELDS.get(kind, ())
        # A block stores only its kind's fields: what the editor typed before switching kind
        # is dropped rather than carried along unseen.
        for name, blank in EMPTY_BLOCK.items():
            if name not in kept and name in cleaned:
                cleaned[name] = blank
        cleaned.update(
            normalised_block_texts(kind, {n: cleaned[n] for n in BLOCK_TEXT_FIELDS if n in cleaned})
        )
        columns: list[str] = []
        rows: list[list[str]] = []
        if kind == Block.Kind.TABLE:
            try:
                columns, rows = parse_table_text(cleaned.get("table") or "")
            except ValueError as exc:
                self.add_error("table", str(exc))
        self.instance.columns, self.instance.rows = columns, rows
        return cleaned

    def add_check_error(self, name: str, message: str) -> None:
        """A problem with the check's field `name` (a key of its spec, or "check" for the
        whole): on the spec's field, named, and kept for the form editor to show at its
        control."""
        label = CHECK_FIELD_LABELS.get(name)
        self.add_error("spec", f"{label}: {message}" if label else message)
        widget = self.fields["spec"].widget
        shown = json.loads(widget.attrs.get("data-errors", "{}"))
        shown[name] = f"{shown[name]} {message}" if name in shown else message
        widget.attrs["data-errors"] = json.dumps(shown)

    def _update_errors(self, errors: ValidationError) -> None:
        # The model names the stored fields (columns, rows); the editor sees one table field.
        # A check's problems ("spec.<field>") go to its spec's field, each named.
        if hasattr(errors, "error_dict"):
            unreadable_spec = self.has_error("spec")  # bad JSON: that is the problem to show
            moved: dict[str, list[ValidationError]] = {}
            for name, messages in errors.error_dict.items():
                if name.startswith("spec."):
                    if unreadable_spec:
                        continue
                    for message in messages:
                        for text in message.messages:
                            self.add_check_error(name.removeprefix("spec."), text)
                    continue
                target = "table" if name in TABLE_FIELDS else name
                if target != NON_FIELD_ERRORS and target not in self.fields:
                    target = NON_FIELD_ERRORS
                moved.setdefault(target, []).extend(messages)
            errors = ValidationError(moved)
        super()._update_errors(errors)  # type: ignore[misc]  # not in django-stubs

    def save(self, commit: bool = True) -> Block:
        if self.instance.kind == Block.Kind.CHECK:
            # Stored as the curriculum loader stores it: defaults filled, texts trimmed.
            self.instance.spec = clean_check(self.instance.spec)
            self.instance.markdown = clean_text(self.instance.markdown)
        # The HTML learners get is rendered here, once, not on every read.
        self.instance.html = block_html(self.instance.kind, self.instance.markdown)
        block: Block = super().save(commit=commit)
        return block


BLOCK_DELETED_MESSAGE = (
    "Another editor deleted this block since you opened the page. What you typed in it is "
    "still here: copy it into a new block if you need it, then tick “Delete” on this one."
)


class BlockFormSet(forms.BaseInlineFormSet):  # type: ignore[type-arg]  # as BlockForm
    """The lesson's blocks together: a check's key is unique within its lesson (answers,
    XP and the curriculum files know a check by it)."""

    def add_fields(self, form: forms.ModelForm[Block], index: int | None) -> None:
        super().add_fields(form, index)
        pk_name = Block._meta.pk.name
        if pk_name in form.fields:
            # A posted block id that is no longer in the lesson: another editor deleted the
            # block since this page was opened. Said so, not as a bad "choice".
            field = form.fields[pk_name]
            field.label = "Block"
            field.error_messages["invalid_choice"] = BLOCK_DELETED_MESSAGE

    def clean(self) -> None:
        super().clean()
        seen: dict[str, int] = {}
        for number, form in enumerate(self.forms, start=1):
            cleaned = getattr(form, "cleaned_data", None)
            if not isinstance(form, BlockForm) or not cleaned or cleaned.get("DELETE"):
                continue
            if cleaned.get("kind") != Block.Kind.CHECK:
                continue
            # The spec as it will be saved (a row posted without one keeps its saved spec).
            spec = form.instance.spec
            key = spec.get("key") if isinstance(spec, dict) else None
            if not isinstance(key, str) or not key:
                continue
            if key in seen:
                form.add_check_error(
                    "key",
                    f"{key!r} is already the key of block {seen[key]}; "
                    "each check of a lesson needs its own",
                )
            else:
                seen[key] = number


class LessonForm(forms.ModelForm):  # type: ignore[type-arg]  # as BlockForm
    """The lesson's own fields, plus the version the editor opened (optimistic locking): a save
    started from an older version than the stored one is refused, with what changed since, and
    the editor's input is kept to merge."""

    opened_version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    # The changes another editor saved since this form was opened (set by clean on conflict).
    conflict: list[LessonVersion]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conflict = []
        if self.instance.pk:
            self.fields["opened_version"].initial = self.instance.version
        # The units on offer are the lesson's quest's (a unit of another is refused on save).
        quest_id = self.instance.quest_id if self.instance.pk else self.initial.get("quest")
        unit = self.fields.get("unit")
        if quest_id and isinstance(unit, forms.ModelChoiceField) and unit.queryset is not None:
            unit.queryset = unit.queryset.filter(quest_id=quest_id)

    def clean_summary(self) -> str:
        summary: str = clean_text(self.cleaned_data.get("summary") or "")  # a str stays one
        return summary

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.instance.pk:
            return cleaned
        opened = cleaned.get("opened_version") or self.instance.version
        # Row-locked until the admin's transaction ends: no save can slip in between this
        # check and this save.
        stored = lock_lesson_version(lesson_id=self.instance.pk)
        if stored is None:
            return cleaned
        if stored != opened:
            self.conflict = changes_since(lesson_id=self.instance.pk, version=opened)
            who, when = "another editor", "a moment ago"
            if self.conflict:
                latest = self.conflict[0]
                who = latest.by or latest.reason or who
                when = f"{latest.at:%Y-%m-%d %H:%M:%S} UTC"
            # Saving again after reading their change is the merge: it starts from theirs.
            data = self.data.copy()  # type: ignore[attr-defined]  # a QueryDict when bound
            data[self.add_prefix("opened_version")] = str(stored)
            self.data = data
            raise ValidationError(
                f"Changed by {who} at {when} since you opened it. Your edits are kept below; "
                "their change is listed above them. Merge what you need, then save again.",
                code="conflict",
            )
        self.instance.version = stored + 1
        return cleaned
