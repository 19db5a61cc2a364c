"""Secrets in URLs: the links e-mailed to a learner carry a key in their path (a password reset,
an address confirmation, a one-click unsubscribe), and whoever holds the key can use it. So no
such key reaches a log line, a metric label, a trace or an error report: each writes what it
says of a URL through `redact`, which keeps the path up to the key and puts `<redacted>` for it.

Apps name the paths that end in a key in their `AppConfig.ready()` (`secret_after`); the log
handlers (settings.LOGGING, gunicorn.conf.py) filter every record through `RedactSecrets`,
Sentry's events and OpenTelemetry's spans go through `redact` (learning_platform/telemetry.py),
and metrics label requests by their route's pattern, never their path. Standard library only:
gunicorn's master imports nothing of Django.
"""

from __future__ import annotations

import logging
import re
from typing import Any

REDACTED = "<redacted>"

_prefixes: set[str] = set()
_pattern: re.Pattern[str] | None = None
# A key runs to the end of its path segment: not past a slash, query, fragment, quote or space.
_KEY = r"[^/?#\s\"'<>]+"
# A LogRecord's own attributes: what `extra` adds is everything else.
_RECORD_ATTRIBUTES = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


def secret_after(*prefixes: str) -> None:
    """Paths that end in a secret: `/account/verify-email/` for `/account/verify-email/<key>`.
    Found anywhere in a text (a path, a full URL, a request line, a Referer)."""
    global _pattern
    _prefixes.update(prefix for prefix in prefixes if prefix)
    alternatives = "|".join(
        re.escape(prefix) for prefix in sorted(_prefixes, key=len, reverse=True)
    )
    _pattern = re.compile(f"({alternatives}){_KEY}")


def redact(text: str) -> str:
    """`text` with the key after each secret path replaced by `<redacted>`."""
    if _pattern is None:
        return text
    return _pattern.sub(lambda match: match.group(1) + REDACTED, text)


def redact_record(record: logging.LogRecord) -> None:
    """Redacts a log record in place: its message, and what its `extra` carries (a path, or an
    object such as the request Django logs with a 4xx or 5xx, whose text names its path)."""
    if _pattern is None:
        return
    try:
        message = record.getMessage()
    except Exception:  # a record whose arguments do not fit its message: left to the handler
        return
    redacted = redact(message)
    if redacted != message:
        record.msg, record.args = redacted, None
    for name, value in list(vars(record).items()):
        if name in _RECORD_ATTRIBUTES or value is None:
            continue
        if isinstance(value, str):
            setattr(record, name, redact(value))
        elif not isinstance(value, int | float | bool | dict | list | tuple):
            text = str(value)
            if redact(text) != text:
                setattr(record, name, redact(text))


class RedactSecrets(logging.Filter):
    """A handler's filter: every record it writes is redacted first (redact_record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        redact_record(record)
        return True


def redact_strings(value: Any) -> Any:
    """`value` (JSON-like: dicts, lists, strings) with every string in it redacted."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: redact_strings(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact_strings(item) for item in value)
    return value
