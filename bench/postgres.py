"""What the benchmarks share: their own PostgreSQL database, created when missing, and the
environment of an in-process Django with production settings."""

from __future__ import annotations

import uuid
from urllib.parse import urlparse


def ensure_database(database_url: str) -> None:
    import psycopg

    url = urlparse(database_url)
    name = url.path.lstrip("/")
    with psycopg.connect(
        host=url.hostname or "127.0.0.1",
        port=url.port or 5432,
        user=url.username or "postgres",
        password=url.password,
        dbname="postgres",
        autocommit=True,
    ) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


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
