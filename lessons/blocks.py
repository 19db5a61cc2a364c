"""The rules a content block must satisfy, shared by the admin and the curriculum loader."""

from typing import Any

from learning_platform.markdown import render_markdown

KINDS = ("prose", "table", "code", "callout")
CALLOUT_STYLES = ("note", "tip", "warning")
MAX_TABLE_COLUMNS = 20
MAX_TABLE_ROWS = 200
MARKDOWN_KINDS = ("prose", "callout")


def block_html(kind: str, markdown: str) -> str:
    """The sanitized HTML a block stores: rendered from its Markdown (prose and callouts)."""
    return render_markdown(markdown, profile="lesson") if kind in MARKDOWN_KINDS else ""


def block_errors(kind: str, fields: dict[str, Any]) -> dict[str, str]:
    """Return {field: problem} for a block of `kind` with `fields`; empty when it is valid."""
    errors: dict[str, str] = {}
    if kind not in KINDS:
        return {"kind": f"unknown block kind {kind!r}; expected one of {', '.join(KINDS)}"}
    if kind in ("prose", "callout"):
        if not str(fields.get("markdown") or "").strip():
            errors["markdown"] = f"a {kind} block needs Markdown text"
        if kind == "callout" and fields.get("style") not in CALLOUT_STYLES:
            errors["style"] = f"callout style must be one of {', '.join(CALLOUT_STYLES)}"
    elif kind == "code":
        if not str(fields.get("source") or "").strip():
            errors["source"] = "a code block needs source"
    elif kind == "table":
        columns = fields.get("columns")
        rows = fields.get("rows")
        if (
            not isinstance(columns, list)
            or not columns
            or not all(isinstance(c, str) and c.strip() for c in columns)
        ):
            errors["columns"] = "a table needs a non-empty list of column headers (text)"
        elif len(columns) > MAX_TABLE_COLUMNS:
            errors["columns"] = f"at most {MAX_TABLE_COLUMNS} columns"
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            errors["rows"] = "rows must be a list of lists"
        elif len(rows) > MAX_TABLE_ROWS:
            errors["rows"] = f"at most {MAX_TABLE_ROWS} rows"
        elif "columns" not in errors:
            for number, row in enumerate(rows, start=1):
                if len(row) != len(columns):
                    errors["rows"] = (
                        f"row {number} has {len(row)} cells; the table has {len(columns)} columns"
                    )
                    break
                if not all(isinstance(cell, str | int | float) for cell in row):
                    errors["rows"] = f"row {number}: cells must be text or numbers"
                    break
    return errors
