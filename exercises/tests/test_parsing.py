"""Reading pasted tables: the shapes learners really paste, the refusals, and properties."""

import csv
import io
import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exercises.parsing import MAX_BYTES, ParseError, Table, is_formula, parse

HEADERS = ("model", "d_model", "n_layers")
ROWS = (("GPT-2", "768", "12"), ("Llama 3 8B", "4,096", "32"))


# --- CSV / TSV -----------------------------------------------------------------------------


def test_csv_with_a_quoted_thousands_separator():
    table = parse("csv", 'model,d_model,n_layers\nGPT-2,768,12\nLlama 3 8B,"4,096",32\n')

    assert table == Table(headers=HEADERS, rows=ROWS)


def test_csv_with_windows_line_endings_a_bom_blank_lines_and_spaces_after_commas():
    content = (
        '\ufeffmodel, d_model, n_layers\r\n\r\nGPT-2, 768, 12\r\nLlama 3 8B, "4,096", 32\r\n\r\n'
    )

    assert parse("csv", content) == Table(headers=HEADERS, rows=ROWS)


def test_csv_separated_by_semicolons():
    table = parse("csv", "model;d_model;n_layers\nGPT-2;768;12\nLlama 3 8B;4,096;32")

    assert table == Table(headers=HEADERS, rows=ROWS)


def test_csv_row_shorter_than_the_header_gets_empty_cells():
    table = parse("csv", "model,d_model,n_layers\nGPT-2,768\n")

    assert table.rows == (("GPT-2", "768", ""),)


def test_csv_trailing_empty_cells_beyond_the_header_are_ignored():
    table = parse("csv", "model,d_model\nGPT-2,768,,\n")

    assert table.rows == (("GPT-2", "768"),)


def test_csv_row_longer_than_the_header_is_refused_with_a_hint_about_commas():
    with pytest.raises(
        ParseError, match=r"Line 2 has 3 cells but the header \(line 1\) names 2 columns.*4,096"
    ):
        parse("csv", "model,d_model\nLlama 3 8B,4,096\n")


def test_a_row_error_names_the_line_as_counted_in_the_box_blank_lines_included():
    with pytest.raises(ParseError, match=r"^Line 4 has 3 cells but the header \(line 2\)"):
        parse("csv", "\nmodel,d_model\n\nLlama 3 8B,4,096\n")


def test_a_markdown_separator_row_with_too_many_cells_is_named():
    content = "| model | d_model |\n|---|---|---|\n| GPT-2 | 768 |"

    with pytest.raises(
        ParseError, match=r"^Line 2 is the separator row under the header: it has 3"
    ):
        parse("markdown", content)


def test_a_markdown_separator_row_with_a_broken_cell_is_named():
    content = "| model | d_model |\n|---|--- ---|\n| GPT-2 | 768 |"

    with pytest.raises(
        ParseError, match=r"^Line 2 is the separator row under the header, but its cell 2"
    ):
        parse("markdown", content)


def test_a_markdown_row_error_names_its_line_not_its_place_under_the_header():
    content = "Here is my table:\n\n| model | d_model |\n|---|---|\n| GPT-2 | 768 | 12 |"

    with pytest.raises(ParseError, match=r"^Line 5 has 3 cells but the header \(line 3\)"):
        parse("markdown", content)


def test_csv_given_a_markdown_table_suggests_markdown():
    with pytest.raises(ParseError, match="Markdown"):
        parse("csv", "| model | d_model |\n|---|---|\n| GPT-2 | 768 |")


def test_tsv_as_copied_from_a_spreadsheet():
    content = "model\td_model\tn_layers\nGPT-2\t768\t12\nLlama 3 8B\t4,096\t32\n"

    assert parse("tsv", content) == Table(headers=HEADERS, rows=ROWS)


def test_tsv_without_tabs_says_so_and_suggests_csv():
    with pytest.raises(ParseError, match=r"no tab.*CSV"):
        parse("tsv", "model,d_model\nGPT-2,768")


# --- Markdown ------------------------------------------------------------------------------


def test_markdown_with_outer_pipes_and_an_alignment_row():
    content = "| model | d_model | n_layers |\n|:---|---:|:-:|\n| GPT-2 | 768 | 12 |\n| Llama 3 8B | 4,096 | 32 |"

    assert parse("markdown", content) == Table(headers=HEADERS, rows=ROWS)


def test_markdown_without_outer_pipes_or_alignment_row():
    content = "model | d_model | n_layers\nGPT-2 | 768 | 12\nLlama 3 8B | 4,096 | 32"

    assert parse("markdown", content) == Table(headers=HEADERS, rows=ROWS)


def test_markdown_with_text_around_the_table():
    content = (
        "Here is my table:\n\n| model | d_model | n_layers |\n| --- | --- | --- |\n"
        "| GPT-2 | 768 | 12 |\n| Llama 3 8B | 4,096 | 32 |\n\nThanks!"
    )

    assert parse("markdown", content) == Table(headers=HEADERS, rows=ROWS)


def test_markdown_grid_table_borders_are_skipped():
    content = (
        "+------------+---------+----------+\n| model      | d_model | n_layers |\n"
        "+============+=========+==========+\n| GPT-2      | 768     | 12       |\n"
        "+------------+---------+----------+\n| Llama 3 8B | 4,096   | 32       |\n"
        "+------------+---------+----------+"
    )

    assert parse("markdown", content) == Table(headers=HEADERS, rows=ROWS)


def test_markdown_pandas_to_markdown_with_an_unnamed_index_column():
    content = (
        "|    | model   |   d_model |\n|---:|:--------|----------:|\n|  0 | GPT-2   |       768 |"
    )

    table = parse("markdown", content)

    assert table.headers == ("", "model", "d_model")
    assert table.rows == (("0", "GPT-2", "768"),)


def test_markdown_escaped_pipe_is_kept_in_the_cell():
    table = parse("markdown", "| model | note |\n|---|---|\n| GPT-2 | a \\| b |")

    assert table.rows == (("GPT-2", "a | b"),)


def test_markdown_missing_placeholders_are_cells_not_alignment():
    table = parse("markdown", "| model | d_model |\n|---|---|\n| GPT-2 | - |")

    assert table.rows == (("GPT-2", "-"),)


def test_markdown_without_pipes_is_refused():
    with pytest.raises(ParseError, match=r"No Markdown table found.*CSV"):
        parse("markdown", "model,d_model\nGPT-2,768")


# --- JSON ----------------------------------------------------------------------------------


def test_json_list_of_objects_keeps_first_seen_key_order_and_fills_gaps():
    content = json.dumps(
        [
            {"model": "GPT-2", "d_model": 768},
            {"model": "Llama 3 8B", "n_layers": 32, "d_model": 4096.0},
        ]
    )

    table = parse("json", content)

    assert table.headers == ("model", "d_model", "n_layers")
    assert table.rows == (("GPT-2", "768", ""), ("Llama 3 8B", "4096.0", "32"))


def test_json_columns_and_rows():
    content = json.dumps({"columns": list(HEADERS), "rows": [list(r) for r in ROWS]})

    assert parse("json", content) == Table(headers=HEADERS, rows=ROWS)


def test_json_pandas_split_orientation():
    content = json.dumps({"columns": ["model", "d_model"], "index": [0], "data": [["GPT-2", 768]]})

    assert parse("json", content).rows == (("GPT-2", "768"),)


def test_json_list_of_lists_with_the_header_first():
    content = json.dumps([["model", "d_model"], ["GPT-2", 768]])

    assert parse("json", content) == Table(headers=("model", "d_model"), rows=(("GPT-2", "768"),))


def test_json_object_keyed_by_model_name():
    content = json.dumps({"GPT-2": {"hidden_size": 768}, "Llama 3 8B": {"hidden_size": 4096}})

    table = parse("json", content)

    assert table.headers == ("model", "hidden_size")
    assert table.rows == (("GPT-2", "768"), ("Llama 3 8B", "4096"))


def test_json_null_is_an_empty_cell():
    assert parse("json", '[{"model": "GPT-2", "d_model": null}]').rows == (("GPT-2", ""),)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[{", "not valid JSON.*line 1"),
        ("[]", "empty"),
        ("[1, 2]", "holds a number"),
        ('"a table"', "Expected a list of objects"),
        ('[{"model": "GPT-2", "d_model": [768]}]', "holds a list where a number"),
        ('[{"model": "GPT-2", "d_model": {"v": 768}}]', "holds an object"),
        ('{"columns": "model", "rows": []}', "must be a list of column names"),
        ('{"columns": ["model"], "rows": 3}', '"rows" must be a list'),
        ("[" * 30_000 + "]" * 30_000, "nested too deeply"),
        ('[{"model": "x", "d_model": ' + "9" * 5000 + "}]", "too long"),
    ],
)
def test_json_problems_are_named(content, message):
    with pytest.raises(ParseError, match=message):
        parse("json", content)


# --- Refusals common to all formats ----------------------------------------------------------


def test_empty_content_is_refused():
    with pytest.raises(ParseError, match="empty"):
        parse("csv", " \n\t\n")


def test_header_without_rows_is_refused():
    with pytest.raises(ParseError, match="no rows"):
        parse("csv", "model,d_model\n")


def test_more_than_200_rows_is_refused():
    content = "model,d_model\n" + "GPT-2,768\n" * 201

    with pytest.raises(ParseError, match="more than 200 rows"):
        parse("csv", content)


def test_exactly_200_rows_is_accepted():
    assert len(parse("csv", "model,d_model\n" + "GPT-2,768\n" * 200).rows) == 200


def test_more_than_32_columns_is_refused():
    header = ",".join(f"c{i}" for i in range(33))

    with pytest.raises(ParseError, match="33 columns"):
        parse("csv", f"{header}\n" + ",".join("1" * 33))


def test_more_than_64_kib_is_refused():
    with pytest.raises(ParseError, match="64 KiB"):
        parse("csv", "model,d_model\n" + "x" * MAX_BYTES)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("model,d_model\nGPT-2,768\x00\n", "NUL"),
        ("model,d_model\nGPT-2,\x07768\n", "control character"),
        ("model,d_model\n\ud800,768\n", "control character"),
        ("model,d_model\n" + "\ufffd" * 40 + ",1\n", "binary"),
    ],
)
def test_binary_junk_is_refused(content, message):
    with pytest.raises(ParseError, match=message):
        parse("csv", content)


def test_a_huge_cell_is_refused():
    with pytest.raises(ParseError, match="Line 2, cell 1 is 501 characters"):
        parse("csv", "model,d_model\n" + "x" * 501 + ",768\n")


@pytest.mark.parametrize(
    "formula",
    ['=HYPERLINK("http://evil.example","x")', "@SUM(A1:A2)", "+cmd|' /C calc'!A0", "-2+3", "=1"],
)
def test_spreadsheet_formulas_are_refused(formula):
    content = io.StringIO()
    csv.writer(content).writerows([["model", "d_model"], ["GPT-2", formula]])

    with pytest.raises(ParseError, match="formula"):
        parse("csv", content.getvalue())


@pytest.mark.parametrize("cell", ["-1", "+4096", "-", "--", "- 5", "4,096", "", "-4.5e3"])
def test_numbers_and_dash_placeholders_are_not_formulas(cell):
    assert not is_formula(cell)


def test_unknown_format_is_refused():
    with pytest.raises(ParseError, match="Unknown format"):
        parse("xlsx", "model\nGPT-2")


# --- Properties ----------------------------------------------------------------------------

_cell_text = st.text(
    alphabet=st.characters(
        codec="utf-8",
        categories=("L", "N", "Zs", "Pd", "Po", "Ps", "Pe", "Sm", "Sc"),
        # ";" alone in a CSV header would read as a semicolon-separated file.
        exclude_characters="\u2028\u2029\x85|\\\ufffd;",
    ),
    max_size=12,
).map(str.strip)
_cell = _cell_text.filter(lambda c: not is_formula(c) and not set(c) <= set("-:= "))
_name = _cell.filter(bool)


@st.composite
def tables(draw):
    width = draw(st.integers(min_value=1, max_value=6))
    headers = tuple(draw(st.lists(_name, min_size=width, max_size=width)))
    rows = draw(st.lists(st.tuples(_name, *[_cell] * (width - 1)), min_size=1, max_size=8))
    return Table(headers=headers, rows=tuple(rows))


def _render(fmt: str, table: Table) -> str:
    if fmt in ("csv", "tsv"):
        out = io.StringIO()
        csv.writer(out, delimiter="," if fmt == "csv" else "\t").writerows(
            [table.headers, *table.rows]
        )
        return out.getvalue()
    if fmt == "markdown":
        lines = [
            "| " + " | ".join(table.headers) + " |",
            "|" + "|".join("---" for _ in table.headers) + "|",
        ]
        lines += ["| " + " | ".join(row) + " |" for row in table.rows]
        return "\n".join(lines)
    return json.dumps({"columns": list(table.headers), "rows": [list(r) for r in table.rows]})


@pytest.mark.parametrize("fmt", ["csv", "tsv", "markdown", "json"])
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(table=tables())
def test_rendered_tables_parse_back_equal(fmt, table):
    # A one-column CSV or TSV has no separator to tell it from a paste in another format
    # (the parser then suggests that format); a graded table always has two columns or more.
    assume(fmt not in ("csv", "tsv") or len(table.headers) > 1)
    assert parse(fmt, _render(fmt, table)) == table


@pytest.mark.parametrize("fmt", ["csv", "tsv", "markdown", "json"])
@given(content=st.text(max_size=400))
def test_arbitrary_text_either_parses_or_raises_parse_error(fmt, content):
    try:
        table = parse(fmt, content)
    except ParseError as exc:
        message = str(exc)
    else:
        message = "."
        assert table.headers
        assert all(len(row) == len(table.headers) for row in table.rows)
    assert message.endswith((".", ")")), message  # a whole sentence for the learner


@given(
    data=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=5), children, max_size=4)
        ),
        max_leaves=30,
    )
)
def test_arbitrary_json_either_parses_or_raises_parse_error(data):
    try:
        table = parse("json", json.dumps(data))
    except ParseError:
        pass
    else:
        assert all(len(row) == len(table.headers) for row in table.rows)


def test_tsv_with_spaces_instead_of_tabs_is_refused():
    with pytest.raises(ParseError, match="no tab"):
        parse("tsv", "model   d_model\nGPT-2   768")


def test_single_column_tsv_needs_no_tab():
    assert parse("tsv", "model\nGPT-2\n").rows == (("GPT-2",),)
