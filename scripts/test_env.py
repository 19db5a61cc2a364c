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
    database = environ.get("DATABASE_URL", "")
    if database:
        database_note = f"{masked(database)} (DATABASE_URL)"
    else:
        probe = environ.get("TEST_DATABASE_URL", DEFAULT_DATABASE_URL)
        if probe != "none" and postgres_answers(probe):
            chosen["DATABASE_URL"] = probe
            database_note = f"PostgreSQL at {masked(probe)}"
        else:
            why = "probe off" if probe == "none" else f"no PostgreSQL at {masked(probe)}"
            database_note = f"SQLite ({why})"
    redis_url = environ.get("REDIS_URL", "")
    if redis_url:
        redis_note = f"{masked(redis_url)} (REDIS_URL)"
    else:
        probe = environ.get("TEST_REDIS_URL", DEFAULT_REDIS_URL)
        if probe != "none" and redis_answers(probe):
            chosen["REDIS_URL"] = probe
            redis_note = f"Redis at {masked(probe)}"
        else:
            why = "probe off" if probe == "none" else f"no Redis at {masked(probe)}"
            redis_note = f"none: local-memory cache, in-process tasks ({why})"
    return chosen, f"make test: database {database_note}; cache and broker {redis_note}"


def main() -> int:
    chosen, note = choose(dict(os.environ))
    for name, value in chosen.items():
        print(f"export {name}={shlex.quote(value)}")
    print(note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
