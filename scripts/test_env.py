#!/usr/bin/env python3
"""Which database and Redis `make test` runs on: prints `export` lines for the shell.

DATABASE_URL and REDIS_URL, when set, are used as they are. Otherwise the suite runs on
what production runs, PostgreSQL and Redis, when they answer at TEST_DATABASE_URL
(default postgres://postgres@127.0.0.1:5432/learning_platform_test; pytest creates and drops
test_<name>) and TEST_REDIS_URL (default redis://127.0.0.1:6379/1; the suite touches only
keys under its own prefix); on SQLite and without Redis when they do not. Set either to
`none` to skip its probe. Each probe gives up after about a second.

Prints one line to stderr saying what the suite runs on, passwords masked.
"""

from __future__ import annotations

import os
import shlex
import socket
import sys
from collections.abc import Callable
from urllib.parse import urlsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/learning_platform_test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/1"
TIMEOUT = 1.0


def masked(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


def port_open(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or default_port), timeout=TIMEOUT
        ):
            return True
    except OSError:
        return False


def postgres_answers(url: str) -> bool:
    """A login to the server's `postgres` database, where pytest-django creates the test one."""
    if not port_open(url, 5432):
        return False
    import psycopg

    parts = urlsplit(url)
    try:
        psycopg.connect(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or 5432,
            user=parts.username or "postgres",
            password=parts.password,
            dbname="postgres",
            connect_timeout=2,
        ).close()
    except psycopg.Error:
        return False
    return True


def redis_answers(url: str) -> bool:
    if not port_open(url, 6379):
        return False
    import redis

    try:
        return bool(
            redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT).ping()
        )
    except redis.RedisError:
        return False


def choose(environ: dict[str, str]) -> tuple[dict[str, str], str]:
    """The variables to export, and the line that says what the suite runs on."""
    chosen: dict[str, str] = {}
    database_note = _pick(
        environ,
        chosen,
        "DATABASE_URL",
        DEFAULT_DATABASE_URL,
        postgres_answers,
        found="PostgreSQL at {}",
        missing="SQLite (no PostgreSQL at {})",
        off="SQLite (probe off)",
    )
    redis_note = _pick(
        environ,
        chosen,
        "REDIS_URL",
        DEFAULT_REDIS_URL,
        redis_answers,
        found="Redis at {}",
        missing="none: local-memory cache, in-process tasks (no Redis at {})",
        off="none: local-memory cache, in-process tasks (probe off)",
    )
    return chosen, f"make test: database {database_note}; cache and broker {redis_note}"


def _pick(
    environ: dict[str, str],
    chosen: dict[str, str],
    name: str,
    default: str,
    answers: Callable[[str], bool],
    *,
    found: str,
    missing: str,
    off: str,
) -> str:
    """`name` as set, else the TEST_ probe's URL when it answers (added to `chosen`): its note."""
    given = environ.get(name, "")
    if given:
        return f"{masked(given)} ({name})"
    probe = environ.get(f"TEST_{name}", default)
    if probe == "none":
        return off
    if answers(probe):
        chosen[name] = probe
        return found.format(masked(probe))
    return missing.format(masked(probe))


def main() -> int:
    chosen, note = choose(dict(os.environ))
    for name, value in chosen.items():
        print(f"export {name}={shlex.quote(value)}")
    print(note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
