"""Text that ends up in one line: names, e-mail subjects and headers."""

from __future__ import annotations

import unicodedata

# Control (Cc), format (Cf: zero-width, bidi overrides) and line/paragraph separators (Zl, Zp):
# nothing a person's name needs, and CR/LF in one breaks the headers of e-mails built from it.
_NOT_IN_ONE_LINE = frozenset({"Cc", "Cf", "Zl", "Zp"})


def has_control_characters(text: str) -> bool:
    return any(unicodedata.category(char) in _NOT_IN_ONE_LINE for char in text)


def single_line(text: str, *, max_length: int | None = None) -> str:
    """`text` with control characters and line breaks turned into single spaces, trimmed."""
    spaced = "".join(
        " " if unicodedata.category(char) in _NOT_IN_ONE_LINE else char for char in text
    )
    line = " ".join(spaced.split())
    return line[:max_length].rstrip() if max_length is not None else line
