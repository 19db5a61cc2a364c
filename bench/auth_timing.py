"""Server time of sign-in (right and wrong password), sign-up and a reset request.

Drives allauth's headless app endpoints through Django's test client, in this process (no
network: the figures are the server's work), with the settings' own PASSWORD_HASHERS (not the
test suite's MD5), on a fresh SQLite file it migrates first. Prints the median and the range
of each over --rounds rounds, in milliseconds. `--hashers pbkdf2` measures Django's previous
default for comparison.

    .venv/bin/python bench/auth_timing.py [--rounds 9] [--hashers argon2|pbkdf2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
PASSWORD = "a long enough passphrase 42"
HASHERS = {
    "argon2": None,  # the settings' own list (Argon2 first)
    "pbkdf2": ["django.contrib.auth.hashers.PBKDF2PasswordHasher"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--hashers", choices=sorted(HASHERS), default="argon2")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="auth-timing-")
    os.environ.update(
        DEBUG="1",
        TESTING="0",
        DATABASE_URL=f"sqlite:///{workdir}/auth.sqlite3",
        EMAIL_URL="dummymail://",
        DJANGO_SETTINGS_MODULE="learning_platform.settings",
        LOG_LEVEL="ERROR",
    )
    for name in ("REDIS_URL", "CACHE_URL", "BROKER_URL"):
        os.environ.pop(name, None)
    sys.path.insert(0, str(BASE_DIR))
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's e-mail outbox and ALLOWED_HOSTS
    if HASHERS[args.hashers]:
        settings.PASSWORD_HASHERS = HASHERS[args.hashers]
    call_command("migrate", verbosity=0)

    def post(path: str, body: dict[str, str]) -> tuple[int, float]:
        # A fresh client and no rate-limit counts: each call as a first attempt.
        cache.clear()
        started = time.perf_counter()
        response = Client().post(
            f"/_allauth/app/v1/auth/{path}", json.dumps(body), content_type="application/json"
        )
        return response.status_code, (time.perf_counter() - started) * 1000

    figures: dict[str, list[float]] = {
        "sign-up": [],
        "sign-in": [],
        "wrong password": [],
        "reset request": [],
    }
    expected = {"sign-up": 200, "sign-in": 200, "wrong password": 400, "reset request": 200}
    for round_ in range(args.rounds + 1):  # the first round warms up and is not counted
        email = f"learner{round_}@example.com"
        calls = {
            "sign-up": ("signup", {"email": email, "password": PASSWORD}),
            "sign-in": ("login", {"email": email, "password": PASSWORD}),
            "wrong password": ("login", {"email": email, "password": PASSWORD + "x"}),
            "reset request": ("password/request", {"email": email}),
        }
        for name, (path, body) in calls.items():
            status, ms = post(path, body)
            assert status == expected[name], (name, status)
            if round_:
                figures[name].append(ms)

    print(f"hashers: {settings.PASSWORD_HASHERS[0].rsplit('.', 1)[-1]}, {args.rounds} rounds")
    for name, values in figures.items():
        print(
            f"  {name:15} median {statistics.median(values):7.1f} ms"
            f"  (min {min(values):.1f}, max {max(values):.1f})"
        )


if __name__ == "__main__":
    main()
