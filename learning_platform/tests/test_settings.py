"""The env-driven settings module: embedded defaults, overrides, production safety.

Settings are evaluated at import time, so each case evaluates the module's file afresh, in
this process, under an environment built from scratch (nothing leaks in from the shell or
CI; the process's environment is restored afterwards).
"""

import importlib.util
import os
import re
from pathlib import Path
from types import ModuleType
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

BASE_DIR = Path(__file__).resolve().parents[2]
SETTINGS_FILE = BASE_DIR / "learning_platform" / "settings.py"
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "x7-" + "k3Q9vLm2Rp8TzWc4Yb6Nd1Hf5Gj0Ks" * 2,
    "ALLOWED_HOSTS": "api.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://app.example.com",
    "CORS_ALLOWED_ORIGINS": "https://app.example.com",
    "FRONTEND_URL": "https://app.example.com",
    "PUBLIC_API_URL": "https://api.example.com",
}

NO_SECRET_KEY = re.escape("SECRET_KEY must be set when DEBUG is off.")
VITE_ORIGINS = ["http://localhost:5173", "http://127.0.0.1:5173"]


def _clean_env(**overrides: str) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TESTING": "0", "LANG": "C.UTF-8"}
    env.update(overrides)
    return env


def load_settings(**env: str) -> ModuleType:
    """The settings module as a process started with exactly `env` would have it."""
    spec = importlib.util.spec_from_file_location("settings_under_test", SETTINGS_FILE)
    module = importlib.util.module_from_spec(spec)
    # clear=True, and restored on exit: ENV_FILE's values land in os.environ too.
    with mock.patch.dict(os.environ, _clean_env(**env), clear=True):
        spec.loader.exec_module(module)
    return module


def test_sqlite_file_is_the_default_database():
    settings = load_settings(DEBUG="1")

    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert settings.DATABASES["default"]["NAME"] == str(BASE_DIR / "db.sqlite3")


def test_without_redis_the_cache_is_local_memory_and_tasks_run_in_process():
    settings = load_settings(DEBUG="1")

    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert settings.CELERY_BROKER_URL == "memory://"
    assert settings.CELERY_TASK_ALWAYS_EAGER is True


def test_embedded_default_sends_email_to_the_console():
    settings = load_settings(DEBUG="1")

    assert settings.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"


def test_database_url_selects_postgresql_with_persistent_checked_connections():
    settings = load_settings(
        DEBUG="1", DATABASE_URL="postgres://lp:s3cret@db.internal:6543/learning_platform"
    )

    db = settings.DATABASES["default"]
    assert {k: db.get(k) for k in ("ENGINE", "NAME", "USER", "HOST", "PORT")} == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "learning_platform",
        "USER": "lp",
        "HOST": "db.internal",
        "PORT": 6543,
    }
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (60, True)


def test_db_conn_max_age_zero_closes_connections_per_request_for_pgbouncer():
    settings = load_settings(
        DEBUG="1", DATABASE_URL="postgres://lp@pgbouncer:6432/lp", DB_CONN_MAX_AGE="0"
    )

    assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 0


def test_redis_url_selects_redis_cache_and_broker_and_real_workers():
    settings = load_settings(DEBUG="1", REDIS_URL="redis://cache.internal:6379/2")

    assert settings.CACHES["default"]["BACKEND"] == "learning_platform.cache.RedisCache"
    assert settings.CACHES["default"]["LOCATION"] == "redis://cache.internal:6379/2"
    assert settings.CELERY_BROKER_URL == "redis://cache.internal:6379/2"
    assert settings.CELERY_TASK_ALWAYS_EAGER is False


def test_an_amqp_broker_url_gets_quorum_queues_confirms_and_heartbeats_and_redis_stays_cache():
    settings = load_settings(
        DEBUG="1",
        REDIS_URL="redis://cache.internal:6379/2",
        BROKER_URL="amqp://lp:secret@rabbitmq.internal:5672/lp",
        BROKER_HEARTBEAT="20",
    )

    assert settings.CACHES["default"]["LOCATION"] == "redis://cache.internal:6379/2"
    assert settings.CELERY_BROKER_URL == "amqp://lp:secret@rabbitmq.internal:5672/lp"
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS == {"confirm_publish": True}
    assert settings.CELERY_TASK_DEFAULT_QUEUE_TYPE == "quorum"
    assert settings.CELERY_TASK_CREATE_MISSING_QUEUE_TYPE == "quorum"
    assert settings.CELERY_TASK_DEFAULT_EXCHANGE_TYPE == "topic"  # native delayed delivery
    assert settings.CELERY_WORKER_DETECT_QUORUM_QUEUES is True
    assert settings.CELERY_BROKER_HEARTBEAT == 20
    assert settings.CELERY_TASK_ACKS_LATE
    assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    assert settings.CELERY_TASK_TIME_LIMIT < settings.RABBITMQ_CONSUMER_TIMEOUT


def test_a_redis_broker_keeps_its_visibility_timeout_and_no_queue_type():
    settings = load_settings(DEBUG="1", REDIS_URL="redis://cache.internal:6379/2")

    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] == 180
    assert not hasattr(settings, "CELERY_TASK_DEFAULT_QUEUE_TYPE")


def test_env_file_is_read_when_named(tmp_path):
    env_file = tmp_path / "app.env"
    env_file.write_text("DATABASE_URL=postgres://from-file@db.internal:5432/from_file\n")

    settings = load_settings(DEBUG="1", ENV_FILE=str(env_file))

    assert settings.DATABASES["default"]["NAME"] == "from_file"


def test_process_environment_wins_over_the_env_file(tmp_path):
    env_file = tmp_path / "app.env"
    env_file.write_text("DATABASE_URL=postgres://from-file@db.internal:5432/from_file\n")

    settings = load_settings(
        DEBUG="1",
        ENV_FILE=str(env_file),
        DATABASE_URL="postgres://from-env@db.internal:5432/from_env",
    )

    assert settings.DATABASES["default"]["NAME"] == "from_env"


def test_secret_key_is_required_when_debug_is_off():
    with pytest.raises(ImproperlyConfigured, match=NO_SECRET_KEY):
        load_settings(DEBUG="0")


def test_debug_off_is_the_default():
    with pytest.raises(ImproperlyConfigured, match=NO_SECRET_KEY):
        load_settings()


def test_debug_mode_falls_back_to_an_insecure_development_key():
    settings = load_settings(DEBUG="1")

    assert settings.SECRET_KEY.startswith("django-insecure-")


def test_debug_trusts_the_vite_dev_server_for_cors_and_csrf():
    settings = load_settings(DEBUG="1")

    assert settings.CORS_ALLOWED_ORIGINS == VITE_ORIGINS
    assert settings.CSRF_TRUSTED_ORIGINS == VITE_ORIGINS


def test_without_debug_no_other_origin_is_trusted_unless_configured():
    production = {**PRODUCTION_ENV}
    del production["CORS_ALLOWED_ORIGINS"], production["CSRF_TRUSTED_ORIGINS"]

    settings = load_settings(**production)

    assert settings.CORS_ALLOWED_ORIGINS == []
    assert settings.CSRF_TRUSTED_ORIGINS == []


def test_configured_origins_replace_the_development_defaults():
    settings = load_settings(
        DEBUG="1", CORS_ALLOWED_ORIGINS="https://app.example.com", CSRF_TRUSTED_ORIGINS=""
    )

    assert settings.CORS_ALLOWED_ORIGINS == ["https://app.example.com"]
    assert settings.CSRF_TRUSTED_ORIGINS == []


def test_production_turns_on_https_hsts_secure_cookies_and_hashed_static_files():
    settings = load_settings(**PRODUCTION_ENV)

    assert settings.DEBUG is False
    assert settings.SECURE_SSL_REDIRECT is True
    assert settings.SESSION_COOKIE_SECURE is True
    assert settings.CSRF_COOKIE_SECURE is True
    assert settings.SECURE_HSTS_SECONDS == 31536000
    assert (
        settings.STORAGES["staticfiles"]["BACKEND"]
        == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )
    assert settings.REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"] == [
        "rest_framework.renderers.JSONRenderer"
    ]


def test_example_env_file_refuses_to_start_until_a_secret_key_is_set():
    with pytest.raises(ImproperlyConfigured, match=NO_SECRET_KEY):
        load_settings(ENV_FILE=str(BASE_DIR / ".env.example"))


def deployment_warnings(**env: str) -> list[str]:
    """Django's deployment checklist (`check --deploy`) over the settings `env` gives.

    The checks read django.conf.settings, so every setting that differs from this process's
    is overridden while they run; the apps and the databases are the ones already set up.
    """
    candidate = load_settings(**env)
    kept = {"INSTALLED_APPS", "DATABASES", "CACHES"}
    changed = {
        name: getattr(candidate, name)
        for name in dir(candidate)
        if name.isupper()
        and name not in kept
        and getattr(django_settings, name, None) != getattr(candidate, name)
    }
    with override_settings(**changed):
        found = checks.run_checks(include_deployment_checks=True)
    return [f"{message.id}: {message.msg}" for message in found if message.level >= checks.WARNING]


def test_deployment_checklist_passes_with_production_environment():
    assert deployment_warnings(**PRODUCTION_ENV) == []


def test_example_env_file_with_a_secret_key_passes_the_deployment_checklist():
    warnings = deployment_warnings(
        ENV_FILE=str(BASE_DIR / ".env.example"), SECRET_KEY=PRODUCTION_ENV["SECRET_KEY"]
    )

    assert warnings == []


def test_the_deployment_checklist_sees_an_insecure_setting():
    insecure = {**PRODUCTION_ENV, "SESSION_COOKIE_SECURE": "false"}

    codes = sorted(w.split(":")[0] for w in deployment_warnings(**insecure))

    assert codes == ["security.W012", "security.W016"]  # the session and the CSRF cookie


@pytest.mark.parametrize("name", ["FRONTEND_URL", "PUBLIC_API_URL"])
def test_the_deployment_checklist_warns_when_email_links_keep_the_development_default(name):
    production = {k: v for k, v in PRODUCTION_ENV.items() if k != name}

    warnings = deployment_warnings(**production)

    assert [w.split(":")[0] for w in warnings] == ["learning_platform.W001"]
    assert f"{name} is http://127.0.0.1:8000" in warnings[0]


def test_the_deployment_checklist_warns_when_email_links_point_at_localhost():
    local = {**PRODUCTION_ENV, "FRONTEND_URL": "http://localhost:8011"}

    warnings = deployment_warnings(**local)

    assert [w.split(":")[0] for w in warnings] == ["learning_platform.W001"]
    assert "FRONTEND_URL" in warnings[0]


def test_the_embedded_default_runs_its_periodic_jobs_in_the_server():
    assert load_settings(DEBUG="1").EMBEDDED_SCHEDULER is True


@pytest.mark.parametrize(
    "env",
    [
        {"REDIS_URL": "redis://127.0.0.1:6379/0"},
        {"BROKER_URL": "redis://b:6379/0"},
        {"TESTING": "1"},
    ],
)
def test_no_embedded_scheduler_with_a_broker_or_under_tests(env):
    assert load_settings(DEBUG="1", **env).EMBEDDED_SCHEDULER is False


def test_passwords_are_hashed_with_argon2_and_older_hashes_still_sign_in():
    hashers = load_settings(**PRODUCTION_ENV).PASSWORD_HASHERS

    assert hashers[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"
    assert "django.contrib.auth.hashers.PBKDF2PasswordHasher" in hashers


def test_the_suite_hashes_with_md5_to_stay_fast():
    assert load_settings(TESTING="1").PASSWORD_HASHERS == [
        "django.contrib.auth.hashers.MD5PasswordHasher"
    ]
