"""The sync cursor: an opaque string for a position in one learner's sync sequence."""

from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

_VERSION = "p1"


class InvalidCursor(ValueError):
    pass


def encode_cursor(seq: int) -> str:
    return urlsafe_base64_encode(f"{_VERSION}:{seq}".encode())


def decode_cursor(cursor: str) -> int:
    """The sequence number in `cursor`; raises InvalidCursor for anything we did not make."""
    try:
        version, seq = urlsafe_base64_decode(cursor).decode().split(":")
        if version != _VERSION or not seq.isdigit():
            raise ValueError(cursor)
        return int(seq)
    except ValueError as exc:  # also a bad encoding (UnicodeDecodeError is a ValueError)
        raise InvalidCursor(cursor) from exc
