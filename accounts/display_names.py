"""Display names that cannot pass for someone else's.

A display name is shown next to comments and in notifications, so it must not be a way to
impersonate another learner:

- it is stored NFKC-normalised, trimmed, with single spaces (fullwidth letters become plain
  ones);
- invisible and formatting characters are refused: Unicode's format, private-use, unassigned
  and surrogate categories, every space other than the plain one (U+00A0 NO-BREAK SPACE, the
  ideographic space...), the tag block U+E0000..E007F and the other default-ignorable code
  points (U+3164 HANGUL FILLER, variation selectors, the combining grapheme joiner...);
- two names with the same *skeleton* are the same name: the skeleton maps every character to
  its prototype in Unicode's confusables table (UTS #39, shipped by `confusable-homoglyphs`)
  and folds case, so "Flush One", "flush one", "FIush 0ne" and "Flush One" with a Cyrillic
  O collide. The skeleton is stored (`User.display_name_key`) under a unique constraint, so
  the database, not only this code, keeps two learners from one name.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data

# Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt) that are not
# already in a refused category: they render as nothing, or nothing visible.
_DEFAULT_IGNORABLE = (
    "\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
    # Not default-ignorable, but blank all the same: Braille pattern blank, Hangul fillers.
    "\u2800"
)
_IGNORABLE = re.compile(f"[{_DEFAULT_IGNORABLE}]")
# Control, format, private use, unassigned, surrogate; line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})

INVISIBLE_MESSAGE = (
    "A name cannot contain invisible or formatting characters or special spaces "
    "({character}). Use visible characters and plain spaces."
)
HANDLE_MESSAGE = (
    'A name cannot look like the "Learner 123456" handles of learners without a display name.'
)
TAKEN_MESSAGE = (
    "This name is taken, or looks too much like another learner's name. Please pick another."
)


def refused_character(name: str) -> str | None:
    """The first character `name` may not contain, described for people ("U+00A0 NO-BREAK
    SPACE"), or None."""
    for character in name:
        if is_refused(character):
            label = unicodedata.name(character, "unnamed character")
            return f"U+{ord(character):04X} {label}"
    return None


def is_refused(character: str) -> bool:
    category = unicodedata.category(character)
    return (
        category in _REFUSED_CATEGORIES
        or (category == "Zs" and character != " ")
        or _IGNORABLE.match(character) is not None
    )


def normalize_display_name(name: str) -> str:
    """NFKC, trimmed, one plain space between words."""
    return " ".join(part for part in unicodedata.normalize("NFKC", name).split(" ") if part)


def display_name_key(name: str) -> str:
    """The skeleton of `name`, case folded: equal for names a reader cannot tell apart ("" for
    no name). Mapped, folded, mapped again: "FIush 0ne" maps to "Flush One", which folds to
    the "flush one" of a learner who typed it in lower case."""
    skeleton = _skeleton(_skeleton(normalize_display_name(name)).casefold())
    return " ".join(skeleton.split())


# The skeleton of a handle ("Learner 482913": accounts.models.new_public_handle); in a
# skeleton the digits 0 and 1 have become "o" and "l".
_HANDLE_KEY = re.compile(r"learner [0-9ol]+")


def looks_like_a_handle(key: str) -> bool:
    """Whether a display name with skeleton `key` could pass for another learner's handle."""
    return _HANDLE_KEY.fullmatch(key) is not None


def _skeleton(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(character, character) for character in text)


# Bidirectional marks the table puts around right-to-left look-alikes.
_MARKS = dict.fromkeys(map(ord, "\u200e\u200f"))


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (UTS #39 confusables.txt, as the package ships
    it). The package lists each line `source -> prototype` under both characters, so a source
    has one entry, its prototype, and a prototype one entry per source. A class of two (one
    entry each way) cannot tell which is which: its smaller code point stands for both."""
    table = {
        character: [entry["c"].translate(_MARKS) for entry in entries]
        for character, entries in confusables_data.items()
    }
    prototypes: dict[str, str] = {}
    for character, others in table.items():
        if len(character) != 1 or len(others) != 1:
            continue  # a prototype of several sources maps to itself
        other = others[0]
        if len(table.get(other, ())) == 1 and len(other) == 1:
            prototypes[character] = min(character, other)
        else:
            prototypes[character] = other
    return prototypes
