"""The admin's block editor: a form per block that shows its kind's fields, a table typed or
pasted as text (shown back as a grid), Markdown with a live preview. The rules are the shared
ones of `lessons.blocks`; the form only maps them onto the fields the editor sees."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.urls import reverse_lazy

from learning_platform.markdown import render_markdown
from lessons.blocks import (
    CODE_LANGUAGES,
    EMPTY_BLOCK,
    KIND_FIELDS,
    block_html,
    format_table_text,
    parse_table_text,
)
from lessons.models import Block

MARKDOWN_PREVIEW_URL = reverse_lazy("admin:lessons_lesson_markdown_preview")
# The table's two stored fields are edited as one text field.
TABLE_FIELDS = ("columns", "rows")


class TableWidget(forms.Textarea):
    """A textarea for pasting (TSV/CSV) with the parsed table rendered as an editable grid."""

    template_name = "admin/lessons/widgets/table.html"

    def get_context(self, name, value, attrs):
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

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["preview_url"] = str(MARKDOWN_PREVIEW_URL)
        context["preview_html"] = render_markdown(value or "", profile="lesson") if value else ""
        return context


class BlockForm(forms.ModelForm):
    table = forms.CharField(
        label="Table",
        required=False,
        widget=TableWidget(attrs={"rows": 6, "class": "lp-table-text"}),
        help_text="Paste cells from a spreadsheet (tab-separated) or type CSV; the first line "
        "holds the column headers. Or edit the cells in the grid below.",
    )

    class Meta:
        model = Block
        fields = ("kind", "markdown", "style", "caption", "title", "language", "source", "position")
        widgets = {
            # Set by the block editor's reordering (drag, or move up / move down).
            "position": forms.HiddenInput(attrs={"class": "lp-block-position"}),
            "markdown": MarkdownWidget(attrs={"rows": 10, "class": "lp-markdown-source"}),
            "language": forms.TextInput(attrs={"list": "lp-code-languages", "size": 16}),
            "source": forms.Textarea(attrs={"rows": 8, "class": "lp-code-source"}),
        }
        help_texts = {"language": "One of: " + ", ".join(CODE_LANGUAGES) + "."}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
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
        columns: list[str] = []
        rows: list[list[str]] = []
        if kind == Block.Kind.TABLE:
            try:
                columns, rows = parse_table_text(cleaned.get("table") or "")
            except ValueError as exc:
                self.add_error("table", str(exc))
        self.instance.columns, self.instance.rows = columns, rows
        return cleaned

    def _update_errors(self, errors: ValidationError) -> None:
        # The model names the stored fields (columns, rows); the editor sees one table field.
        if hasattr(errors, "error_dict"):
            moved: dict[str, list] = {}
            for name, messages in errors.error_dict.items():
                target = "table" if name in TABLE_FIELDS else name
                if target != NON_FIELD_ERRORS and target not in self.fields:
                    target = NON_FIELD_ERRORS
                moved.setdefault(target, []).extend(messages)
            errors = ValidationError(moved)
        super()._update_errors(errors)  # type: ignore[misc]  # not in django-stubs

    def save(self, commit: bool = True) -> Block:
        # The HTML learners get is rendered here, once, not on every read.
        self.instance.html = block_html(self.instance.kind, self.instance.markdown)
        return super().save(commit=commit)
