"""The LOGGING setting: one console handler, text for people or JSON for collectors.

Kept out of settings.py, which reads the environment and passes the two choices in.
"""

from __future__ import annotations

from typing import Any


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """`log_format` is "json" (one object per line) or "text"; another fails dictConfig."""
    filters = ["request_id", "secret_urls"]  # secret_urls: keys of e-mailed links never logged
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
            "json": {"()": "learning_platform.observe.json_formatter"},
        },
        "filters": {
            "request_id": {"()": "learning_platform.observe.RequestIdFilter"},
            "secret_urls": {"()": "learning_platform.secret_urls.RedactSecrets"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": log_format,
                "filters": filters,
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.db.backends": {"level": "INFO"},
            # A grading batch revokes its members' messages; with no result backend, Celery
            # warns once per revoked id that it cannot store the state, which no one needs.
            "celery.worker.control": {"level": "ERROR"},
        },
    }
