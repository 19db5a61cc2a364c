"""The rules a content block (and a lesson's link) must satisfy, shared by the admin and the
curriculum loader, and the plain-text table format the admin's table editor speaks."""

import csv
import io
import re
from typing import Any

from learning_platform.markdown import markdown_problems, render_markdown
from lessons.checks import check_errors, clean_text

KINDS = ("prose", "table", "code", "callout", "check")
CALLOUT_STYLES = ("note", "tip", "warning")
MAX_TABLE_COLUMNS = 20
MAX_TABLE_ROWS = 200
# The languages a code block may declare. The web app highlights the ones lessons use most
# (web/src/lib/highlight.ts) and shows the others as plain text.
CODE_LANGUAGES = (
    "bash",
    "c",
    "cpp",
    "css",
    "csv",
    "diff",
    "go",
    "html",
    "java",
    "javascript",
    "json",
    "markdown",
    "python",
    "rust",
    "shell",
    "sql",
    "text",
    "toml",
    "typescript",
    "yaml",
)
# Fields of each kind, in the order an editor fills them in.
KIND_FIELDS = {
    "prose": ("markdown",),
    "callout": ("style", "markdown"),
    "table": ("caption", "columns", "rows"),
    "code": ("title", "language", "source"),
    # A check's prompt is its Markdown; the rest of it (lessons.checks) is its spec.
    "check": ("markdown", "spec"),
}
# What a block stores in the fields its kind does not use.
EMPTY_BLOCK: dict[str, Any] = {
    "markdown": "",
    "style": "",
    "caption": "",
    "columns": [],
    "rows": [],
    "title": "",
    "language": "",
    "source": "",
    "spec": {},
}
_HTTP_URL = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)


def link_url_error(url: Any) -> str | None:
    """Why `url` cannot be a lesson's link (only http and https are), or None."""
    if not isinstance(url, str) or not _HTTP_URL.match(url):
        return f"must be an http(s) URL, got {url!r}"
    return None


MARKDOWN_KINDS = ("prose", "callout", "check")
# The texts stored as blocks of lines (lesson files write them as `|` blocks).
BLOCK_TEXT_FIELDS = ("markdown", "source")


def block_text(value: str) -> str:
    """A prose, callout or code text as stored: lines ending in "\n" (not the "\r\n" a
    browser posts), no trailing spaces, one final newline. The admin and the curriculum
    loader store the same text the same way, so a save without changes changes nothing and
    lesson files keep plain `|` blocks."""
    text = clean_text(value)
    return f"{text}\n" if text else ""


def normalised_block_texts(kind: str, values: dict[str, Any]) -> dict[str, Any]:
    """`values` with the block's texts as stored (a check's prompt is trimmed, as its spec's
    texts are)."""
    clean = clean_text if kind == "check" else block_text
    return {
        name: clean(value) if name in BLOCK_TEXT_FIELDS and isinstance(value, str) else value
        for name, value in values.items()
    }


def block_html(kind: str, markdown: str) -> str:
    """The sanitized HTML a block stores: rendered from its Markdown (prose and callouts)."""
    return render_markdown(markdown, profile="lesson") if kind in MARKDOWN_KINDS else ""


def refusal(problems: list[str]) -> str:
    """The message a save refused for unsafe Markdown shows (the live preview shows it too)."""
    return "Refused: " + "; ".join(problems) + "."


def markdown_preview(markdown: str) -> dict[str, Any]:
    """What the admin's live preview shows for a block's Markdown: its HTML, what the sanitizer
    strips, and the refusal a save of it would answer ("" when it would save)."""
    problems = markdown_problems(markdown, profile="lesson")
    return {
        "html": render_markdown(markdown, profile="lesson"),
        "problems": problems,
        "refusal": refusal(problems) if problems else "",
    }


def block_errors(kind: str, fields: dict[str, Any]) -> dict[str, str]:
    """Return {field: problem} for a block of `kind` with `fields`; empty when it is valid."""
    errors: dict[str, str] = {}
    if kind not in KINDS:
        return {"kind": f"unknown block kind {kind!r}; expected one of {', '.join(KINDS)}"}
    if kind in MARKDOWN_KINDS:
        if not str(fields.get("markdown") or "").strip():
            errors["markdown"] = (
                "a check needs its prompt (Markdown)"
                if kind == "check"
                else f"a {kind} block needs Markdown text"
            )
        else:
            unsafe = markdown_problems(str(fields["markdown"]), profile="lesson")
            if unsafe:
                errors["markdown"] = refusal(unsafe)
        if kind == "callout" and fields.get("style") not in CALLOUT_STYLES:
            errors["style"] = f"callout style must be one of {', '.join(CALLOUT_STYLES)}"
        if kind == "check":
            errors.update(
                {
                    f"spec.{name}": problem
                    for name, problem in check_errors(fields.get("spec")).items()
                }
            )
    elif kind == "code":
        if not str(fields.get("source") or "").strip():
            errors["source"] = "a code block needs source"
        language = fields.get("language") or ""
        if not language:
            errors["language"] = "a code block needs a language (text for plain text)"
        elif language not in CODE_LANGUAGES:
            errors["language"] = (
                f"unknown language {language!r}; use one of {', '.join(CODE_LANGUAGES)}"
            )
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
        elif isinstance(columns, list) and "columns" not in errors:
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


def parse_table_text(text: str) -> tuple[list[str], list[list[str]]]:
    """Split a table pasted from a spreadsheet into (columns, rows); the first line is the header.

    Tab-separated when the header line has a tab (what spreadsheets put on the clipboard),
    otherwise CSV (comma, or semicolon when the header has more of those). Quoted cells may
    hold separators and line breaks. Cells are trimmed, blank lines skipped; ragged rows are
    kept as they are so that `block_errors` can name them. ValueError when it cannot be read.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    if not lines.strip():
        return [], []
    header = lines.split("\n", 1)[0]
    semicolons = header.count(";") > header.count(",")
    delimiter = "\t" if "\t" in header else ";" if semicolons else ","
    try:
        records = [
            [cell.strip() for cell in record]
            for record in csv.reader(io.StringIO(lines.replace("\x00", "")), delimiter=delimiter)
            if any(cell.strip() for cell in record)
        ]
    except csv.Error as exc:  # e.g. a cell over the csv module's field size limit
        raise ValueError(f"the table could not be read: {exc}") from exc
    return (records[0], records[1:]) if records else ([], [])


def format_table_text(columns: list[Any], rows: list[Any]) -> str:
    """The table as tab-separated text (header first), the format `parse_table_text` reads."""
    if not columns and not rows:
        return ""
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow([str(c) for c in columns])
    for row in rows:
        writer.writerow([str(cell) for cell in row] if isinstance(row, list) else [str(row)])
    return out.getvalue()
