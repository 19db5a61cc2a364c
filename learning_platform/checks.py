"""Start-up check: no task may wait in the broker longer than its visibility timeout.

Redis hands a message that is not acknowledged within `visibility_timeout` to a worker
again. A task published with a countdown or ETA is held unacknowledged until it is due and
then runs, so a delay plus the task's run time longer than that window makes it run twice
(digests did: 76 runs for 38 tasks). Retries are such delays too (autoretry backoff).
The check runs with every `manage.py` command (Django system check) and when a Celery
worker starts (learning_platform/celery.py), which then refuses to start.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig, apps
from django.conf import settings
from django.core.checks import Error, register

# Celery's defaults when a task sets retry_backoff without a maximum, or no backoff at all.
CELERY_DEFAULT_BACKOFF_MAX = 600
CELERY_DEFAULT_RETRY_DELAY = 180


def _import_task_modules() -> None:
    for config in apps.get_app_configs():
        module = f"{config.name}.tasks"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)


def delay_errors() -> list[str]:
    """Each task or periodic entry whose longest wait in the broker, plus its time limit,
    reaches the visibility timeout."""
    from learning_platform.celery import app

    _import_task_modules()
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600)
    default_limit = settings.CELERY_TASK_TIME_LIMIT or 0
    errors = []
    if default_limit >= visibility:
        errors.append(
            f"CELERY_TASK_TIME_LIMIT ({default_limit} s) must stay under the visibility "
            f"timeout ({visibility} s)."
        )
    for task in app.tasks.values():
        if task.name.startswith("celery."):
            continue
        limit = task.time_limit or default_limit
        if getattr(task, "autoretry_for", ()):
            if getattr(task, "retry_backoff", False):
                longest = getattr(task, "retry_backoff_max", CELERY_DEFAULT_BACKOFF_MAX)
            else:
                longest = task.default_retry_delay or CELERY_DEFAULT_RETRY_DELAY
            if longest + limit >= visibility:
                errors.append(
                    f"Task {task.name}: a retry waits up to {longest} s and runs up to "
                    f"{limit} s, not under the visibility timeout ({visibility} s)."
                )
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        options = entry.get("options", {})
        countdown = options.get("countdown") or 0
        if "eta" in options or countdown + default_limit >= visibility:
            errors.append(
                f"Periodic entry {name}: a countdown of {countdown} s (or an ETA) is not under "
                f"the visibility timeout ({visibility} s)."
            )
    return errors


@register("celery")
def check_task_delays(app_configs: Sequence[AppConfig] | None = None, **kwargs: Any) -> list[Error]:
    return [
        Error(message, hint="Drive delayed work from the periodic schedule (due rows).",
              id="learning_platform.E001")
        for message in delay_errors()
    ]  # fmt: skip
