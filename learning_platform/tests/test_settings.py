"""The env-driven settings module: embedded defaults, overrides, production safety.

Settings are evaluated at import time, so each case imports them in a fresh interpreter
with an environment built from scratch (nothing leaks in from the shell or CI).
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "x7-" + "k3Q9vLm2Rp8TzWc4Yb6Nd1Hf5Gj0Ks" * 2,
    "ALLOWED_HOSTS": "api.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://app.example.com",
    "CORS_ALLOWED_ORIGINS": "https://app.example.com",
    "FRONTEND_URL": "https://app.example.com",
    "PUBLIC_API_URL": "https://api.example.com",
}

DUMP = """
import json
import learning_platform.settings as s
db = s.DATABASES["default"]
print(json.dumps({
    "db": {k: db.get(k) for k in ("ENGINE", "NAME", "USER", "HOST", "PORT",
                                  "CONN_MAX_AGE", "CONN_HEALTH_CHECKS")},
    "cache": s.CACHES["default"],
    "broker": s.CELERY_BROKER_URL,
    "eager": s.CELERY_TASK_ALWAYS_EAGER,
    "debug": s.DEBUG,
    "secret_key": s.SECRET_KEY,
    "ssl_redirect": s.SECURE_SSL_REDIRECT,
    "session_cookie_secure": s.SESSION_COOKIE_SECURE,
    "csrf_cookie_secure": s.CSRF_COOKIE_SECURE,
    "hsts": s.SECURE_HSTS_SECONDS,
    "static_backend": s.STORAGES["staticfiles"]["BACKEND"],
    "renderers": s.REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"],
    "email_backend": s.EMAIL_BACKEND,
    "cors_origins": s.CORS_ALLOWED_ORIGINS,
    "csrf_trusted_origins": s.CSRF_TRUSTED_ORIGINS,
}, default=str))
"""


def _clean_env(**overrides: str) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TESTING": "0", "LANG": "C.UTF-8"}
    env.update(overrides)
    return env


def _run(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env=_clean_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def load_settings(**env: str) -> dict:
    result = _run(DUMP, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_sqlite_file_is_the_default_database():
    settings = load_settings(DEBUG="1")

    assert settings["db"]["ENGINE"] == "django.db.backends.sqlite3"
    assert settings["db"]["NAME"] == str(BASE_DIR / "db.sqlite3")


def test_without_redis_the_cache_is_local_memory_and_tasks_run_in_process():
    settings = load_settings(DEBUG="1")

    assert settings["cache"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert settings["broker"] == "memory://"
    assert settings["eager"] is True


def test_embedded_default_sends_email_to_the_console():
    settings = load_settings(DEBUG="1")

    assert settings["email_backend"] == "django.core.mail.backends.console.EmailBackend"


def test_database_url_selects_postgresql_with_persistent_checked_connections():
    settings = load_settings(
        DEBUG="1", DATABASE_URL="postgres://lp:s3cret@db.internal:6543/learning_platform"
    )

    assert settings["db"] == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "learning_platform",
        "USER": "lp",
        "HOST": "db.internal",
        "PORT": 6543,
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
    }


def test_db_conn_max_age_zero_closes_connections_per_request_for_pgbouncer():
    settings = load_settings(
        DEBUG="1", DATABASE_URL="postgres://lp@pgbouncer:6432/lp", DB_CONN_MAX_AGE="0"
    )

    assert settings["db"]["CONN_MAX_AGE"] == 0


def test_redis_url_selects_redis_cache_and_broker_and_real_workers():
    settings = load_settings(DEBUG="1", REDIS_URL="redis://cache.internal:6379/2")

    assert settings["cache"]["BACKEND"] == "learning_platform.cache.RedisCache"
    assert settings["cache"]["LOCATION"] == "redis://cache.internal:6379/2"
    assert settings["broker"] == "redis://cache.internal:6379/2"
    assert settings["eager"] is False


def test_env_file_is_read_when_named(tmp_path):
    env_file = tmp_path / "app.env"
    env_file.write_text("DATABASE_URL=postgres://from-file@db.internal:5432/from_file\n")

    settings = load_settings(DEBUG="1", ENV_FILE=str(env_file))

    assert settings["db"]["NAME"] == "from_file"


def test_process_environment_wins_over_the_env_file(tmp_path):
    env_file = tmp_path / "app.env"
    env_file.write_text("DATABASE_URL=postgres://from-file@db.internal:5432/from_file\n")

    settings = load_settings(
        DEBUG="1",
        ENV_FILE=str(env_file),
        DATABASE_URL="postgres://from-env@db.internal:5432/from_env",
    )

    assert settings["db"]["NAME"] == "from_env"


def test_secret_key_is_required_when_debug_is_off():
    result = _run("import learning_platform.settings", DEBUG="0")

    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set when DEBUG is off." in result.stderr


def test_debug_off_is_the_default():
    result = _run("import learning_platform.settings")

    assert "SECRET_KEY must be set when DEBUG is off." in result.stderr


def test_debug_mode_falls_back_to_an_insecure_development_key():
    settings = load_settings(DEBUG="1")

    assert settings["secret_key"].startswith("django-insecure-")


def test_debug_trusts_the_vite_dev_server_for_cors_and_csrf():
    settings = load_settings(DEBUG="1")

    vite = ["http://localhost:5173", "http://127.0.0.1:5173"]
    assert settings["cors_origins"] == vite
    assert settings["csrf_trusted_origins"] == vite


def test_without_debug_no_other_origin_is_trusted_unless_configured():
    production = {**PRODUCTION_ENV}
    del production["CORS_ALLOWED_ORIGINS"], production["CSRF_TRUSTED_ORIGINS"]

    settings = load_settings(**production)

    assert settings["cors_origins"] == []
    assert settings["csrf_trusted_origins"] == []


def test_configured_origins_replace_the_development_defaults():
    settings = load_settings(
        DEBUG="1", CORS_ALLOWED_ORIGINS="https://app.example.com", CSRF_TRUSTED_ORIGINS=""
    )

    assert settings["cors_origins"] == ["https://app.example.com"]
    assert settings["csrf_trusted_origins"] == []


def test_production_turns_on_https_hsts_secure_cookies_and_hashed_static_files():
    settings = load_settings(**PRODUCTION_ENV)

    assert settings["debug"] is False
    assert settings["ssl_redirect"] is True
    assert settings["session_cookie_secure"] is True
    assert settings["csrf_cookie_secure"] is True
    assert settings["hsts"] == 31536000
    assert settings["static_backend"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert settings["renderers"] == ["rest_framework.renderers.JSONRenderer"]


def _check_deploy(**env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=_clean_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_deployment_checklist_passes_with_production_environment():
    result = _check_deploy(**PRODUCTION_ENV)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNINGS" not in result.stdout + result.stderr


def test_example_env_file_refuses_to_start_until_a_secret_key_is_set():
    result = _run("import learning_platform.settings", ENV_FILE=".env.example")

    assert "SECRET_KEY must be set when DEBUG is off." in result.stderr


def test_example_env_file_with_a_secret_key_passes_the_deployment_checklist():
    result = _check_deploy(ENV_FILE=".env.example", SECRET_KEY=PRODUCTION_ENV["SECRET_KEY"])

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def _variables_read_by_settings() -> set[str]:
    source = (BASE_DIR / "learning_platform" / "settings.py").read_text()
    return set(re.findall(r"env(?:\.[a-z_]+)?\(\s*\"([A-Z][A-Z0-9_]*)\"", source))


def test_settings_read_the_variables_this_test_expects():
    names = _variables_read_by_settings()

    assert {"SECRET_KEY", "DEBUG", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"} <= names


@pytest.mark.parametrize("document", [".env.example", "docs/operations.md"])
def test_every_environment_variable_is_documented(document):
    text = (BASE_DIR / document).read_text()

    undocumented = sorted(
        name for name in _variables_read_by_settings() if not re.search(rf"\b{name}\b", text)
    )

    assert undocumented == [], f"document these in {document}: {undocumented}"
