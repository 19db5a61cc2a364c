"""What the benchmarks share: their own PostgreSQL database (created when missing, or dropped
and created afresh), and the environment of an in-process Django with production settings."""

from __future__ import annotations

import uuid
from urllib.parse import urlparse


def admin_connection(database_url: str):
    """An autocommit connection to the `postgres` database of the server at `database_url`
    (CREATE and DROP DATABASE cannot run in the database itself, nor in a transaction)."""
    import psycopg

    url = urlparse(database_url)
    return psycopg.connect(
        host=url.hostname or "127.0.0.1",
        port=url.port or 5432,
        user=url.username or "postgres",
        password=url.password,
        dbname="postgres",
        autocommit=True,
    )


def database_name(database_url: str) -> str:
    return urlparse(database_url).path.lstrip("/")


def ensure_database(database_url: str) -> None:
    name = database_name(database_url)
    with admin_connection(database_url) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def recreate_database(database_url: str) -> None:
    """The database dropped (its sessions ended) and created afresh, empty."""
    name = database_name(database_url)
    with admin_connection(database_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(database_url: str) -> None:
    with admin_connection(database_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database_name(database_url)}" WITH (FORCE)')


def in_process_environment(**overrides: str) -> dict[str, str]:
    """Settings for Django run in the benchmark's own process as in production (DEBUG off),
    answering the test client's host over plain HTTP."""
    return {
        "DJANGO_SETTINGS_MODULE": "learning_platform.settings",
        "DEBUG": "0",
        "TESTING": "0",
        "SECRET_KEY": "bench-only-" + uuid.uuid4().hex,
        "ALLOWED_HOSTS": "testserver",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "LOG_LEVEL": "WARNING",
        **overrides,
    }
