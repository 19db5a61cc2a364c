"""Text that ends up in one line: names, e-mail subjects and headers."""

from __future__ import annotations

import re

# C0 and C1 controls, line and paragraph separators, and the invisible format characters
# (soft hyphen, zero-width, bidirectional overrides, BOM): nothing a person's name needs, and
# CR/LF in one breaks the headers of e-mails built from it. One character class, so the API's
# check and the schema's `pattern` are the same rule.
NOT_IN_ONE_LINE = (
    "\x00-\x1f\x7f-\x9f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
)
ONE_LINE_PATTERN = f"^[^{NOT_IN_ONE_LINE}]*$"
_NOT_IN_ONE_LINE = re.compile(f"[{NOT_IN_ONE_LINE}]")


def has_control_characters(text: str) -> bool:
    return _NOT_IN_ONE_LINE.search(text) is not None


def single_line(text: str, *, max_length: int | None = None) -> str:
    """`text` with control characters and line breaks turned into single spaces, trimmed."""
    line = " ".join(_NOT_IN_ONE_LINE.sub(" ", text).split())
    return line[:max_length].rstrip() if max_length is not None else line
