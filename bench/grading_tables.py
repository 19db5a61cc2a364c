"""What bench/bench_grading.py grades: typical submissions as learners paste them, and the
in-process benchmark of parsing and grading them (no database)."""

from __future__ import annotations

import json
import random
import statistics
import time

FIGURES = ("d_model", "n_layers", "n_heads", "vocab_size", "intermediate_size")
HEADER_SPELLINGS = {
    "d_model": ["d_model", "hidden_size", "n_embd", "Hidden size", "dim", "d_model (hidden_size)"],
    "n_layers": ["n_layers", "num_hidden_layers", "n_layer", "Layers", "# layers"],
    "n_heads": ["n_heads", "num_attention_heads", "n_head", "Heads", "attention heads"],
    "vocab_size": ["vocab_size", "Vocab size", "vocabulary", "n_vocab"],
    "intermediate_size": ["intermediate_size", "n_inner", "ffn_dim", "FFN size", "d_ff"],
}
UNKNOWN_MODELS = ["FooLM-13B", "Mistral-7B-Instruct-v0.2", "Llama 4 Scout", "my-finetune"]
SPEC = {
    "title": "Three config.json files",
    "prompt": "Pull the config.json of three open-weight models and tabulate them.",
    "columns": [{"name": f} for f in FIGURES],
    "rows_required": 3,
    "pass_mark": 0.8,
    "xp": 60,
}


# --- Typical submissions ---------------------------------------------------------------------


def model_variants(row: dict) -> list[str]:
    names = [row["name"], *row["aliases"], row["hf_repo"]]
    return [n for n in names if n]


def typical_table(
    rng: random.Random, references: list[dict], *, correct: bool = False
) -> tuple[str, str]:
    """(format, content) of one submission as learners paste them; `correct`: every row a
    known model with right figures (it passes), spelled as variously as the others."""
    count = rng.randint(3, 10)
    chosen = rng.sample(references, count)
    headers = ["model", *(rng.choice(HEADER_SPELLINGS[f]) for f in FIGURES)]
    if rng.random() < 0.3:
        headers.append("notes")
    rows = []
    for reference in chosen:
        name = rng.choice(model_variants(reference))
        if rng.random() < 0.1 and not correct:
            name = rng.choice(UNKNOWN_MODELS)
        cells = [name]
        for figure in FIGURES:
            value = reference[figure]
            if rng.random() < 1 / 6 and not correct:
                value = value * 2
            cells.append(rng.choice([str(value), f"{value:,}", f"{value}.0"]))
        if len(headers) > len(cells):
            cells.append(rng.choice(["", "from the HF hub", "config.json"]))
        rows.append(cells)
    fmt = rng.choice(["csv", "tsv", "markdown", "json"])
    return fmt, render(fmt, headers, rows)


def render(fmt: str, headers: list[str], rows: list[list[str]]) -> str:
    if fmt == "json":
        return json.dumps([dict(zip(headers, row, strict=True)) for row in rows])
    if fmt == "markdown":
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    if fmt == "tsv":
        return "\n".join("\t".join(r) for r in [headers, *rows])
    return "\n".join(",".join(f'"{c}"' if "," in c else c for c in r) for r in [headers, *rows])


# --- In-process ------------------------------------------------------------------------------


def bench_in_process(count: int) -> dict:
    from exercises import grading, parsing
    from exercises.catalogue_seed import reference_rows
    from exercises.specs import clean_spec

    references = reference_rows()
    catalogue = grading.Catalogue(
        grading.ReferenceModel(
            name=r["name"],
            figures={f: r[f] for f in grading.FIELD_HEADERS},
            aliases=(*r["aliases"], r["hf_repo"]),
        )
        for r in references
    )
    data = clean_spec(SPEC, default_slug="bench")
    spec = grading.ExerciseSpec(
        columns=tuple(grading.ColumnSpec(c["name"], c["field"]) for c in data["columns"]),
        rows_required=data["rows_required"],
        pass_mark=data["pass_mark"],
    )
    rng = random.Random(42)
    submissions = [typical_table(rng, references) for _ in range(count)]
    tables = [parsing.parse(fmt, content) for fmt, content in submissions]
    passed = sum(grading.grade(t, spec, catalogue).passed for t in tables)

    def timed(work) -> tuple[float, float]:
        cpu, wall = time.process_time(), time.perf_counter()
        work()
        return time.process_time() - cpu, time.perf_counter() - wall

    def parse_and_grade():
        for fmt, content in submissions:
            grading.grade(parsing.parse(fmt, content), spec, catalogue)

    def grade_only():
        for table in tables:
            grading.grade(table, spec, catalogue)

    parse_and_grade()  # warm up
    both = min((timed(parse_and_grade) for _ in range(3)), key=lambda t: t[0])
    alone = min((timed(grade_only) for _ in range(3)), key=lambda t: t[0])
    per_format = {}
    for fmt in ("csv", "tsv", "markdown", "json"):
        items = [(f, c) for f, c in submissions if f == fmt]
        cpu = time.process_time()
        for f, c in items:
            grading.grade(parsing.parse(f, c), spec, catalogue)
        per_format[fmt] = (time.process_time() - cpu) / len(items) * 1e6
    return {
        "tables": count,
        "rows_mean": statistics.mean(len(t.rows) for t in tables),
        "passed_share": passed / count,
        "per_second": count / both[1],
        "cpu_us_parse_and_grade": both[0] / count * 1e6,
        "cpu_us_grade_only": alone[0] / count * 1e6,
        "cpu_us_by_format": per_format,
    }
