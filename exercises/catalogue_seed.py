"""The reference catalogue as shipped: model_configs.json plus curated families and aliases.

Pure data (no models), read by the seeding migration and by `load_model_references`.
The figures come from each model's published config.json (see each entry's `source`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"
FIGURES = ("d_model", "n_layers", "n_heads", "n_kv_heads", "vocab_size", "intermediate_size")


def reference_rows(data_dir: Path = DATA_DIR) -> list[dict[str, Any]]:
    """One dict per model with the fields of ModelReference."""
    configs = json.loads((data_dir / "model_configs.json").read_text(encoding="utf-8"))
    extras = json.loads((data_dir / "model_aliases.json").read_text(encoding="utf-8"))
    rows = []
    for config in configs:
        name = config["name"]
        extra = extras.get(name, {})
        repo, _, note = config.get("hf_repo", "").partition(" (")
        repo = repo.split(" / ")[0].strip()
        source = config.get("source", "")
        if note:
            source = f"{source} ({note}".strip()
        rows.append(
            {
                "name": name,
                "aliases": list(extra.get("aliases", [])),
                "family": extra.get("family", ""),
                "hf_repo": repo,
                "source": source[:500],
                **{figure: config.get(figure) for figure in FIGURES},
            }
        )
    return rows
