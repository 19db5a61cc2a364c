"""Read the table a learner pasted: CSV, TSV, Markdown or JSON, into headers and rows of text.

Pure Python, no Django. `parse(format, content)` answers a `Table` or raises `ParseError`
whose message is a sentence a learner can act on. Anything else escaping from here is a bug
(the property tests feed it arbitrary text).

What is accepted, deliberately:
- blank lines anywhere, a byte-order mark, Windows or old Mac line endings;
- rows shorter than the header (the missing cells are empty), but not longer ones: a longer
  row usually means an unquoted "4,096" split a number in two, and guessing would mis-grade;
- CSV separated by commas or, when the header has no comma, semicolons (European exports);
- Markdown with or without outer pipes, with or without the alignment row, grid borders
  (`+----+`) skipped, `\\|` for a literal pipe, text before and after the table ignored;
- JSON as a list of objects, a list of lists (header first), `{"columns", "rows"}` or
  pandas' `{"columns", "data"}`, or an object of objects keyed by model name.

What is refused: more than 64 KiB, 200 rows, 32 columns or 500 characters in a cell; control
characters; spreadsheet formulas (`=HYPERLINK(...)`, `@SUM(...)`, `+cmd|...`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from typing import Any

MAX_BYTES = 64 * 1024
MAX_ROWS = 200
MAX_COLUMNS = 32
MAX_CELL_CHARS = 500
FORMATS = ("csv", "tsv", "markdown", "json")


class ParseError(ValueError):
    """The content cannot be read as a table; the message says why, for the learner."""


@dataclass(frozen=True)
class Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def parse(fmt: str, content: str) -> Table:
    """Read `content` in format `fmt` ("csv", "tsv", "markdown" or "json") as a table."""
    if fmt not in FORMATS:
        raise ParseError(f"Unknown format {fmt!r}; use one of: {', '.join(FORMATS)}.")
    check_text(content)
    text = content.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise ParseError("The submission is empty; paste your table.")
    lines: Lines | None = None
    if fmt == "json":
        headers, rows = _read_json(text)
    elif fmt == "markdown":
        headers, rows, lines = _read_markdown(text)
    else:
        headers, rows, lines = _read_delimited(text, fmt)
    return _finish(headers, rows, fmt, lines)


@dataclass(frozen=True)
class Lines:
    """Where the header and each row are in the pasted text, as the learner counts lines in
    the box (1 for the first, blank lines included): messages name these, so "line 3" cannot
    be mistaken for the header or for the third model."""

    header: int
    rows: tuple[int, ...]


def _where(number: int, lines: Lines | None) -> str:
    """A data row, by its line where there are lines, else by its place under the header."""
    return f"Line {lines.rows[number - 1]}" if lines else f"Row {number} under the header"


_CONTROL = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def check_text(content: str) -> None:
    """Refuse what no pasted table contains: oversize content, binary data, control characters."""
    size = len(content.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise ParseError(f"The submission is {kib(size)} KiB; the limit is {kib(MAX_BYTES)} KiB.")
    if "\x00" in content:
        raise ParseError(
            "The submission contains binary data (NUL bytes); paste the table as plain text."
        )
    control = _CONTROL.search(content)
    if control:
        raise ParseError(
            f"The submission contains a control character (U+{ord(control.group()):04X}) that "
            "a pasted table never has; paste the table as plain text."
        )
    replacements = content.count("\ufffd")
    if replacements > 8 and replacements * 100 > len(content):
        raise ParseError(
            "The submission looks like binary data (many undecodable characters); "
            "paste the table as plain text."
        )


def kib(size: int) -> str:
    """`size` bytes in KiB as every message says it, rounded up: whole KiB from 10 KiB, else
    tenths (a table one byte over 64 KiB is "65 KiB", never "64 KiB; the limit is 64 KiB").
    The web app says sizes by the same rule (web/src/features/exercises/limits.ts), so the
    figure it shows before sending is the one the server would answer."""
    if size >= 10 * 1024:
        return str(-(-size // 1024))
    tenths = -(-size * 10 // 1024)
    return f"{tenths // 10}.{tenths % 10}"


# --- CSV and TSV ------------------------------------------------------------------------------


def _read_delimited(text: str, fmt: str) -> tuple[list[str], list[list[str]], Lines]:
    first_line = next(line for line in text.split("\n") if line.strip())
    if fmt == "tsv":
        delimiter = "\t"
        hint = _format_hint(first_line)
        if "\t" not in first_line and (hint or len(first_line.split()) > 1):
            # One column needs no tab; several words without one are not TSV.
            raise ParseError(
                "The header row has no tab between columns, so this is not TSV"
                + (f"; it looks like {hint}: choose that format." if hint else ".")
            )
    else:
        delimiter = ","
        if "," not in first_line and sum(1 for p in first_line.split(";") if p.strip()) > 1:
            delimiter = ";"
        elif "," not in first_line:
            hint = _format_hint(first_line)
            if hint:
                raise ParseError(
                    f"The header row has no comma between columns; it looks like {hint}: "
                    "choose that format."
                )
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, skipinitialspace=True)
    rows: list[list[str]] = []
    starts: list[int] = []
    start = 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append(row)
                starts.append(start)
                if len(rows) > MAX_ROWS + 1:
                    _too_many_rows()
            start = reader.line_num + 1  # a quoted cell may run over several lines
    except csv.Error as exc:
        raise ParseError(
            f"Line {reader.line_num} is not valid {fmt.upper()} ({exc}); check its quotes."
        ) from None
    if not rows:
        raise ParseError("The submission is empty; paste your table.")
    return rows[0], rows[1:], Lines(header=starts[0], rows=tuple(starts[1:]))


def _format_hint(line: str) -> str | None:
    if "|" in line:
        return "a Markdown table"
    if "\t" in line:
        return "TSV (tab-separated)"
    if "," in line:
        return "CSV"
    if line.lstrip().startswith(("[", "{")):
        return "JSON"
    return None


# --- Markdown ---------------------------------------------------------------------------------

_ALIGNMENT_CELL = re.compile(r"^:?-+:?$")
_RULE_CELL = re.compile(r"^(:?-{3,}:?|=+)$")
_GRID_BORDER = re.compile(r"^\s*\+[-=+: ]*\+\s*$")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def _read_markdown(text: str) -> tuple[list[str], list[list[str]], Lines]:
    table_lines: list[tuple[int, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if _GRID_BORDER.match(line):
            continue
        if "|" in line:
            table_lines.append((number, line))
        elif table_lines and line.strip():
            break  # the text after the table
    if not table_lines:
        hint = _format_hint(text.strip().split("\n", 1)[0])
        raise ParseError(
            "No Markdown table found: its rows need | between the cells"
            + (f". This looks like {hint}: choose that format." if hint else ".")
        )
    rows = [(number, _markdown_cells(line)) for number, line in table_lines]
    (header_line, header), body = rows[0], rows[1:]
    if body and _looks_like_separator(body[0][1]):
        _check_separator(body[0], len(header))
        body = body[1:]
    body = [
        (number, row)
        for number, row in body
        if any(row) and not all(_RULE_CELL.match(cell) for cell in row if cell)
    ]
    lines = Lines(header=header_line, rows=tuple(number for number, _ in body))
    return header, [row for _, row in body], lines


_SEPARATOR_CHARACTERS = re.compile(r"^[\s:=-]*$")


def _looks_like_separator(cells: list[str]) -> bool:
    """Only dashes, colons and spaces, and a dash somewhere: meant as the row under the header."""
    return any("-" in cell for cell in cells) and all(
        _SEPARATOR_CHARACTERS.match(cell) for cell in cells
    )


def _check_separator(row: tuple[int, list[str]], width: int) -> None:
    """The separator row under the header: one cell of dashes (with optional colons) per
    column. A malformed one is named rather than graded as a model called "---"."""
    number, cells = row
    bad = next((i for i, cell in enumerate(cells, start=1) if not _ALIGNMENT_CELL.match(cell)), 0)
    if bad:
        raise ParseError(
            f"Line {number} is the separator row under the header, but its cell {bad} "
            f'("{cells[bad - 1]}") is not one run of dashes: write it like |---|---|, with :--- or ---: '
            "to align."
        )
    if len(cells) != width:
        raise ParseError(
            f"Line {number} is the separator row under the header: it has {len(cells)} "
            f"cell{'s' if len(cells) != 1 else ''} but the header names {width} "
            f"column{'s' if width != 1 else ''}. Give it one --- per column."
        )


def _markdown_cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [cell.strip().replace("\\|", "|") for cell in _UNESCAPED_PIPE.split(line)]


# --- JSON -------------------------------------------------------------------------------------


def _read_json(text: str) -> tuple[list[str], list[list[str]]]:
    try:
        data = json.loads(text)
    except RecursionError:
        raise ParseError(
            "The JSON is nested too deeply; send a list of objects or {columns, rows}."
        ) from None
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"This is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."
        ) from None
    except ValueError:  # e.g. an integer with thousands of digits
        raise ParseError("The JSON holds a number too long to be a model's figure.") from None

    if isinstance(data, list):
        if not data:
            raise ParseError("The JSON list is empty; put one object per model in it.")
        if len(data) > MAX_ROWS + 1:
            _too_many_rows()
        if all(isinstance(item, dict) for item in data):
            return _from_records(data)
        if all(isinstance(item, list) for item in data):
            return _from_lists(data[0], data[1:], "the first list")
        odd = next((i for i in data if not isinstance(i, dict)), None)
        raise ParseError(
            f"The JSON list holds {_json_kind(odd)}; expected one object per model, like "
            '[{"model": "GPT-2", "d_model": 768}].'
        )
    if isinstance(data, dict):
        columns = data.get("columns")
        rows_key = "rows" if "rows" in data else "data" if "data" in data else None
        if columns is not None and rows_key is not None:
            rows = data[rows_key]
            if not isinstance(rows, list):
                raise ParseError(f'"{rows_key}" must be a list of rows.')
            if len(rows) > MAX_ROWS:
                _too_many_rows()
            if rows and all(isinstance(row, dict) for row in rows):
                return _from_records(rows, columns=columns)
            return _from_lists(columns, rows, '"columns"')
        if data and all(isinstance(value, dict) for value in data.values()):
            if len(data) > MAX_ROWS:
                _too_many_rows()
            records = [{"model": name, **values} for name, values in data.items()]
            return _from_records(records)
    raise ParseError(
        'Expected a list of objects (one per model) or {"columns": [...], "rows": [[...], ...]}.'
    )


def _from_records(records: list[Any], columns: object = None) -> tuple[list[str], list[list[str]]]:
    headers: list[str] = []
    if columns is not None:
        headers = _header_list(columns, '"columns"')
    seen = set(headers)
    for record in records:
        for key in record:
            if key not in seen:
                seen.add(key)
                headers.append(key)
                if len(headers) > MAX_COLUMNS:
                    _too_many_columns(len(headers))
    rows = [
        [_json_cell(record.get(h), number, h) for h in headers]
        for number, record in enumerate(records, start=1)
    ]
    return headers, rows


def _from_lists(header: object, rows: list[Any], where: str) -> tuple[list[str], list[list[str]]]:
    headers = _header_list(header, where)
    table: list[list[str]] = []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, list):
            raise ParseError(
                f"Row {number} under the header is {_json_kind(row)}; each row must be a list."
            )
        table.append(
            [
                _json_cell(value, number, headers[i] if i < len(headers) else str(i + 1))
                for i, value in enumerate(row)
            ]
        )
    return headers, table


def _header_list(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(h, str | int | float) for h in value):
        raise ParseError(f"{where[0].upper()}{where[1:]} must be a list of column names.")
    if len(value) > MAX_COLUMNS:
        _too_many_columns(len(value))
    return [str(h) for h in value]


def _json_cell(value: object, row: int, column: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    raise ParseError(
        f'Row {row} under the header, "{column[:40]}" holds {_json_kind(value)} where a number '
        "or a name belongs."
    )


_JSON_KINDS = {dict: "an object", list: "a list", str: "text", type(None): "null"}


def _json_kind(value: object) -> str:
    # json.loads makes exactly these types; anything else it makes is a number (or a bool).
    return _JSON_KINDS.get(type(value), "a number")


# --- Common checks ----------------------------------------------------------------------------


def _finish(headers: list[str], rows: list[list[str]], fmt: str, lines: Lines | None) -> Table:
    headers = [h.strip() for h in headers]
    while headers and not headers[-1]:
        headers.pop()
    if not headers:
        raise ParseError("The header row is empty; the first row must name the columns.")
    if len(headers) > MAX_COLUMNS:
        _too_many_columns(len(headers))
    if not rows:
        raise ParseError("The table has a header row but no rows; add one row per model.")
    if len(rows) > MAX_ROWS:
        _too_many_rows()
    width = len(headers)
    _check_cells(headers, f"The header (line {lines.header})" if lines else "The header")
    cleaned: list[tuple[str, ...]] = []
    for number, row in enumerate(rows, start=1):
        cells = [cell.strip() for cell in row]
        while len(cells) > width and not cells[-1]:
            cells.pop()
        if len(cells) > width:
            hint = (
                " If a number contains a comma (4,096), quote it or leave the comma out."
                if fmt == "csv"
                else ""
            )
            header = f"the header (line {lines.header})" if lines else "the header"
            raise ParseError(
                f"{_where(number, lines)} has {len(cells)} cells but {header} names "
                f"{width} column{'s' if width != 1 else ''}." + hint
            )
        _check_cells(cells, _where(number, lines))
        cleaned.append(tuple(cells) + ("",) * (width - len(cells)))
    return Table(headers=tuple(headers), rows=tuple(cleaned))


_NUMBER_LIKE = re.compile(r"^[+-]?[\d.,\s_']*\d[\d.,\s_']*(?:[eE][+-]?\d+)?$")


_FORMULA_STARTS = frozenset("=+-@")


def _check_cells(cells: list[str], where: str) -> None:
    # Almost every row passes: checked at C speed first, cell by cell only to say what failed.
    if max(map(len, cells), default=0) <= MAX_CELL_CHARS and not any(
        cell[:1] in _FORMULA_STARTS for cell in cells
    ):
        return
    for index, cell in enumerate(cells, start=1):
        if len(cell) > MAX_CELL_CHARS:
            raise ParseError(
                f"{where}, cell {index} is {len(cell)} characters long; a cell holds a name or "
                f"a number (at most {MAX_CELL_CHARS} characters)."
            )
        if is_formula(cell):
            raise ParseError(
                f'{where}, cell {index} starts with "{cell[0]}" like a spreadsheet formula '
                f'("{cell[:30]}"); paste the values, not formulas.'
            )


def is_formula(cell: str) -> bool:
    """True for text a spreadsheet would run as a formula (CSV injection), not for numbers
    (-1, +4096) or dash placeholders (-, --, —)."""
    if not cell or cell[0] not in _FORMULA_STARTS:
        return False
    if cell[0] in "=@":
        return True
    rest = cell.lstrip("+-")
    return bool(rest) and not _NUMBER_LIKE.match(cell)


def _too_many_rows() -> None:
    raise ParseError(f"The table has more than {MAX_ROWS} rows; at most {MAX_ROWS} are accepted.")


def _too_many_columns(count: int) -> None:
    raise ParseError(f"The table has {count} columns; at most {MAX_COLUMNS} are accepted.")
