"""Recognise what learners write: model names and column headers, however they spell them.

Pure Python. Two normalisations, each deliberate:

`model_key(name)` turns "Llama 3 8B", "Meta-Llama-3-8B", "llama3-8b",
"meta-llama/Meta-Llama-3-8B-Instruct" and "https://huggingface.co/meta-llama/Meta-Llama-3-8B"
into the same key "llama3|8b":
- lowercase; a repository path or URL keeps only the repository name;
- split into words on anything but letters, digits and a dot between digits ("3.1", "1.1b");
- drop a leading organisation word (meta, google, microsoft, ...);
- drop fine-tuning variants that keep the architecture: instruct, chat, hf, it, deduped;
- glue the words back together, keeping one separator only between two numbers, so
  "Qwen2.5-7B" ("qwen2.5|7b") never meets "Qwen2-57B" ("qwen2|57b"), while
  "GPT-2 XL", "gpt2-xl" and "GPT2XL" all meet.
Version words stay: Mistral-7B-v0.1 and v0.3 differ (vocabulary size), so "Mistral 7B" alone
matches only where the catalogue lists it as an alias.

`header_key(header)` lowercases and drops everything but letters and digits ("Hidden size",
"hidden_size" and "HIDDEN-SIZE" are all "hiddensize"); a header like "d_model (hidden_size)"
also tries each of its parts.
"""

from __future__ import annotations

import re
from functools import lru_cache

ORGANISATION_WORDS = frozenset(
    {"meta", "google", "microsoft", "mistralai", "openai", "tiiuae", "allenai", "eleutherai"}
)
VARIANT_WORDS = frozenset({"instruct", "chat", "hf", "it", "deduped"})
_URL_TAIL = re.compile(r"/(?:blob|resolve|tree|raw)/[^/]+(?:/.*)?$")
_WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)*")
_HEADER_JUNK = re.compile(r"[^a-z0-9]+")
_HEADER_PARTS = re.compile(r"[/()\[\]|,;]+")


# Learners write the same few names and headers again and again: each is normalised once per
# process (bounded; the functions are pure).
@lru_cache(maxsize=8192)
def model_key(name: str) -> str:
    """The key under which a model name is looked up (see the module's docstring)."""
    text = name.strip().lower()
    if "/" in text:
        text = _URL_TAIL.sub("", text.split("?", 1)[0].rstrip("/"))
        text = text.removesuffix("/config.json").rstrip("/").rsplit("/", 1)[-1]
    words = _WORD.findall(text)
    if len(words) > 1 and words[0] in ORGANISATION_WORDS:
        words = words[1:]
    words = [words[0], *(w for w in words[1:] if w not in VARIANT_WORDS)] if words else []
    key = ""
    for word in words:
        if key and key[-1].isdigit() and word[0].isdigit():
            key += "|"
        key += word
    return key


@lru_cache(maxsize=4096)
def header_key(header: str) -> str:
    return _HEADER_JUNK.sub("", header.lower())


@lru_cache(maxsize=4096)
def header_parts(header: str) -> tuple[str, ...]:
    """Keys of the parts of a header between / ( ) [ ] | , ; ("d_model (hidden_size)")."""
    whole = header_key(header)
    parts = (header_key(p) for p in _HEADER_PARTS.split(header))
    return tuple(p for p in dict.fromkeys(parts) if p and p != whole)
