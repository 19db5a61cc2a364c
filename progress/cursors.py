"""The sync cursor: an opaque string for a position in one learner's sync sequence."""

import base64
import binascii

_VERSION = "p1"


class InvalidCursor(ValueError):
    pass


def encode_cursor(seq: int) -> str:
    raw = f"{_VERSION}:{seq}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> int:
    """The sequence number in `cursor`; raises InvalidCursor for anything we did not make."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        version, seq = raw.split(":")
        if version != _VERSION or not seq.isdigit():
            raise ValueError(raw)
        return int(seq)
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        raise InvalidCursor(cursor) from exc
