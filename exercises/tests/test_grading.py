"""Grading parsed tables against the shipped catalogue: what learners really write."""

import json

import pytest

from exercises.catalogue_seed import reference_rows
from exercises.grading import (
    FIELD_HEADERS,
    Catalogue,
    ColumnSpec,
    ExerciseSpec,
    ReferenceModel,
    grade,
    read_number,
)
from exercises.matching import model_key
from exercises.parsing import parse

SPEC = ExerciseSpec(
    columns=tuple(
        ColumnSpec(name=name, field=name)
        for name in ("d_model", "n_layers", "n_heads", "vocab_size", "intermediate_size")
    ),
    rows_required=3,
    pass_mark=0.8,
)


@pytest.fixture(scope="module")
def catalogue():
    return Catalogue(
        ReferenceModel(
            name=row["name"],
            figures={f: row[f] for f in FIELD_HEADERS},
            aliases=(*row["aliases"], row["hf_repo"]),
        )
        for row in reference_rows()
    )


def verdicts(result):
    return [[cell.verdict for cell in row.cells] for row in result.rows]


GOOD_CSV = """model,d_model,n_layers,n_heads,vocab_size,intermediate_size
GPT-2,768,12,12,50257,3072
Llama 3 8B,4096,32,32,128256,14336
Mistral-7B-v0.1,4096,32,32,32000,14336
"""


def test_a_correct_table_passes_with_a_full_score(catalogue):
    result = grade(parse("csv", GOOD_CSV), SPEC, catalogue)

    assert result.passed
    assert result.score == 1.0
    assert [row.model for row in result.rows] == ["GPT-2", "Meta-Llama-3-8B", "Mistral-7B-v0.1"]
    assert result.summary.startswith("Passed: 15 of 15 cells right across 3 models.")


def test_the_shipped_catalogue_has_no_two_models_sharing_a_name(catalogue):
    owners: dict[str, set[str]] = {}
    for model in catalogue.models:
        for name in (model.name, *model.aliases):
            owners.setdefault(model_key(name), set()).add(model.name)
    assert {key: names for key, names in owners.items() if key and len(names) > 1} == {}
    assert len(catalogue.models) == 34


@pytest.mark.parametrize(
    ("written", "model"),
    [
        ("Llama 3 8B", "Meta-Llama-3-8B"),
        ("Meta-Llama-3-8B", "Meta-Llama-3-8B"),
        ("llama3-8b", "Meta-Llama-3-8B"),
        ("meta-llama/Meta-Llama-3-8B-Instruct", "Meta-Llama-3-8B"),
        (
            "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json",
            "Meta-Llama-3-8B",
        ),
        ("LLaMA-2-7b-chat-hf", "Llama-2-7B"),
        ("Llama 3.1 405B Instruct", "Llama-3.1-405B"),
        ("Llama-3.3-70B", "Llama-3.3-70B-Instruct"),
        ("mistralai/Mistral-7B-Instruct-v0.1", "Mistral-7B-v0.1"),
        ("Mistral 7B", "Mistral-7B-v0.1"),
        ("Mistral-7B-v0.3", "Mistral-7B-Instruct-v0.3"),
        ("Mixtral 8x7B Instruct", "Mixtral-8x7B-v0.1"),
        ("Qwen2.5-7B-Instruct", "Qwen2.5-7B"),
        ("qwen 2.5 72b", "Qwen2.5-72B"),
        ("Qwen/Qwen2-7B-Instruct", "Qwen2-7B"),
        ("gemma-2b-it", "Gemma-2B"),
        ("google/gemma-2-9b", "Gemma-2-9B"),
        ("GPT2", "GPT-2"),
        ("gpt2-xl", "GPT-2 XL"),
        ("openai-community/gpt2-medium", "GPT-2 medium"),
        ("bert-base-uncased", "BERT-base-uncased"),
        ("BERT large", "BERT-large-uncased"),
        ("TinyLlama", "TinyLlama-1.1B-Chat-v1.0"),
        ("EleutherAI/pythia-6.9b-deduped", "Pythia-6.9b"),
        ("gpt-j", "GPT-J-6B"),
        ("phi-3-mini-4k-instruct", "Phi-3-mini-4k-instruct"),
        ("falcon-7b-instruct", "Falcon-7B"),
        ("DeepSeek-V2-Lite-Chat", "DeepSeek-V2-Lite"),
    ],
)
def test_model_names_as_learners_write_them(catalogue, written, model):
    assert catalogue.match(written).name == model


@pytest.mark.parametrize(
    "written",
    ["Mistral-7B-Instruct-v0.2", "Qwen2-57B-A14B", "Gemma-2-2B", "Llama 4", "GPT-3", "", "it"],
)
def test_models_not_in_the_catalogue_are_not_guessed(catalogue, written):
    assert catalogue.match(written) is None


def test_keys_keep_numbers_apart_but_join_words():
    assert model_key("Qwen2.5-7B") != model_key("Qwen2-57B")
    assert model_key("GPT-2 XL") == model_key("gpt2xl")
    assert model_key("Llama 2 7B") != model_key("Llama 27B")


def test_headers_by_their_config_json_names_in_any_order_and_case(catalogue):
    content = (
        "N_EMBD,Num Hidden Layers,num_attention_heads,FFN dim,Model Name,Vocab-Size,notes\n"
        "768,12,12,3072,gpt2,50257,from HF\n"
        "1600,48,25,6400,gpt2-xl,50257,\n"
        "4096,32,32,14336,Meta-Llama-3-8B-Instruct,128256,\n"
    )

    result = grade(parse("csv", content), SPEC, catalogue)

    assert result.passed
    assert result.key_header == "Model Name"
    assert result.columns == {
        "d_model": ("N_EMBD",),
        "n_layers": ("Num Hidden Layers",),
        "n_heads": ("num_attention_heads",),
        "vocab_size": ("Vocab-Size",),
        "intermediate_size": ("FFN dim",),
    }


def test_header_with_a_note_in_parentheses_is_read_by_its_parts(catalogue):
    content = (
        "| Model | d_model (hidden_size) | layers | heads | vocab | FFN |\n|---|---|---|---|---|---|\n"
        "| GPT-2 | 768 | 12 | 12 | 50,257 | 3,072 |"
    )

    result = grade(parse("markdown", content), SPEC, catalogue)

    assert result.columns["d_model"] == ("d_model (hidden_size)",)
    assert verdicts(result) == [["correct"] * 5]


def test_spec_synonyms_extend_the_accepted_headers(catalogue):
    spec = ExerciseSpec(
        columns=(ColumnSpec("d_model", "d_model", synonyms=("breite",)),), rows_required=1
    )

    result = grade(parse("csv", "model,Breite\nGPT-2,768"), spec, catalogue)

    assert result.passed


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("4096", 4096),
        ("4,096", 4096),
        ("4 096", 4096),
        ("4\u00a0096", 4096),
        ("4\u202f096", 4096),
        ("4'096", 4096),
        ("4_096", 4096),
        ("4096.0", 4096),
        ("4.096e3", 4096),
        ("**4096**", 4096),
        ("`4096`", 4096),
        ("4096 (hidden_size)", 4096),
        ("128,256", 128256),
        ("+32", 32),
    ],
)
def test_numbers_as_learners_write_them(text, value):
    assert read_number(text) == value


@pytest.mark.parametrize("text", ["", "-", "—", "n/a", "N/A", "?", "nan", "  "])
def test_empty_cells_and_placeholders_are_missing(text):
    assert read_number(text) == "missing"


@pytest.mark.parametrize(
    "text", ["4k", "~4096", "4,09", "four thousand", "4.096.0", "inf", "1e999", "40 96"]
)
def test_other_text_is_not_a_number(text):
    assert read_number(text) is None


def test_each_cell_gets_its_verdict(catalogue):
    content = (
        "model,d_model,n_layers,n_heads,vocab_size,intermediate_size\n"
        "GPT-2,768,24,,lots,3072\n"
        "Falcon-7B,4544,32,71,65024,18176\n"
        "Gemma-7B,3072,28,16,256000,24576\n"
    )

    result = grade(parse("csv", content), SPEC, catalogue)

    assert verdicts(result)[0] == ["correct", "incorrect", "missing", "unparseable", "correct"]
    assert result.rows[0].cells[1].expected == 12
    assert result.correct == 12
    assert result.score == pytest.approx(12 / 15, abs=1e-4)
    assert result.passed  # 80% is the pass mark


def test_one_wrong_cell_too_many_fails_and_says_what_is_needed(catalogue):
    content = (
        "model,d_model,n_layers,n_heads,vocab_size,intermediate_size\n"
        "GPT-2,768,24,,lots,3072\n"
        "Falcon-7B,4544,32,71,65024,1\n"
        "Gemma-7B,3072,28,16,256000,24576\n"
    )

    result = grade(parse("csv", content), SPEC, catalogue)

    assert not result.passed
    assert "11 of 15 cells right (73%)" in result.summary
    assert "80% of the cells right" in result.summary


def test_unknown_models_are_named_and_do_not_count(catalogue):
    content = GOOD_CSV.replace("Mistral-7B-v0.1", "FooLM-13B")

    result = grade(parse("csv", content), SPEC, catalogue)

    assert not result.passed
    assert result.rows[2].model is None
    assert verdicts(result)[2] == ["unchecked"] * 5
    assert result.models_recognised == 2
    assert result.score == pytest.approx(10 / 15, abs=1e-4)
    assert "“FooLM-13B”" in result.summary
    assert "3 distinct recognised models" in result.summary


def test_the_same_model_twice_counts_once(catalogue):
    content = GOOD_CSV + "Meta-Llama-3-8B,4096,32,32,128256,14336\n"
    content = content.replace("Mistral-7B-v0.1,4096,32,32,32000,14336\n", "")

    result = grade(parse("csv", content), SPEC, catalogue)

    assert result.rows[2].duplicate
    assert verdicts(result)[2] == ["unchecked"] * 5
    assert result.models_recognised == 2
    assert not result.passed


def test_one_perfect_row_of_three_required_scores_a_third(catalogue):
    result = grade(parse("csv", GOOD_CSV.split("Llama")[0]), SPEC, catalogue)

    assert result.score == pytest.approx(1 / 3, abs=1e-4)
    assert not result.passed


def test_a_missing_column_makes_its_cells_missing_and_is_named(catalogue):
    content = "\n".join(",".join(line.split(",")[:-1]) for line in GOOD_CSV.strip().split("\n"))

    result = grade(parse("csv", content), SPEC, catalogue)

    assert result.columns["intermediate_size"] == ()
    assert all(row[-1] == "missing" for row in verdicts(result))
    assert "No column found for intermediate_size" in result.summary
    assert result.score == pytest.approx(12 / 15, abs=1e-4)


def test_without_a_model_header_the_first_column_of_words_is_the_key(catalogue):
    content = GOOD_CSV.replace("model,", "architecture,")

    result = grade(parse("csv", content), SPEC, catalogue)

    assert result.key_header == "architecture"
    assert result.passed


def test_pandas_index_column_is_not_taken_for_the_model_names(catalogue):
    content = (
        "|    | name   |   hidden_size |\n|---:|:-------|----------:|\n"
        "|  0 | gpt2   |       768 |\n|  1 | gpt2-xl |      1600 |"
    )
    spec = ExerciseSpec(columns=(ColumnSpec("d_model", "d_model"),), rows_required=2)

    result = grade(parse("markdown", content), spec, catalogue)

    assert result.key_header == "name"
    assert result.passed


def test_no_column_of_names_at_all_is_explained(catalogue):
    result = grade(parse("csv", "d_model,n_layers\n768,12\n4096,32"), SPEC, catalogue)

    assert not result.passed
    assert result.score == 0
    assert "No column of model names" in result.summary


def test_tolerance_accepts_near_values():
    catalogue = Catalogue([ReferenceModel("M-1", {"d_model": 1000})])
    spec = ExerciseSpec(columns=(ColumnSpec("d_model", "d_model", tolerance=5),), rows_required=1)

    near = grade(parse("csv", "model,d_model\nM-1,1004.5"), spec, catalogue)
    far = grade(parse("csv", "model,d_model\nM-1,1006"), spec, catalogue)

    assert verdicts(near) == [["correct"]]
    assert verdicts(far) == [["incorrect"]]


def test_a_figure_the_catalogue_lacks_is_unchecked_and_not_counted():
    catalogue = Catalogue([ReferenceModel("M-1", {"d_model": 1000, "n_kv_heads": None})])
    spec = ExerciseSpec(
        columns=(ColumnSpec("d_model", "d_model"), ColumnSpec("kv", "n_kv_heads")), rows_required=1
    )

    result = grade(parse("csv", "model,d_model,kv\nM-1,1000,8"), spec, catalogue)

    assert verdicts(result) == [["correct", "unchecked"]]
    assert result.score == 1.0


def test_json_records_straight_from_config_json_keys(catalogue):
    rows = [
        {"model": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257, "n_inner": 3072},
        {"model": "Qwen/Qwen2.5-7B", "hidden_size": 3584, "num_hidden_layers": 28,
         "num_attention_heads": 28, "vocab_size": 152064, "intermediate_size": 18944},
        {"model": "EleutherAI/gpt-j-6b", "n_embd": 4096, "n_layer": 28, "n_head": 16,
         "vocab_size": 50400, "n_inner": 16384},
    ]  # fmt: skip

    result = grade(parse("json", json.dumps(rows)), SPEC, catalogue)

    assert result.passed
    assert result.score == 1.0


def test_feedback_is_json_ready(catalogue):
    feedback = grade(parse("csv", GOOD_CSV), SPEC, catalogue).as_feedback()

    assert json.loads(json.dumps(feedback)) == feedback
    assert feedback["rows"][1]["cells"][0] == {
        "column": "d_model",
        "submitted": "4096",
        "verdict": "correct",
        "expected": 4096,
    }
