"""System checks: no task may be held by a worker longer than the broker allows, and (with
`check --deploy`) e-mail links built from a public origin.

Delays:

Redis hands a message that is not acknowledged within `visibility_timeout` to a worker
again. A task published with a countdown or ETA is held unacknowledged until it is due and
then runs, so a delay plus the task's run time longer than that window makes it run twice
(digests did: 76 runs for 38 tasks). Retries are such delays too (autoretry backoff).
RabbitMQ keeps delays in the broker (learning_platform/broker.py); there only a task's time
limit must stay under its consumer_timeout. The check runs with every `manage.py` command
(Django system check) and when a Celery worker starts (learning_platform/celery.py), which
then refuses to start.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import Error, Tags, register
from django.core.checks import Warning as CheckWarning

from learning_platform import broker

# Celery's defaults when a task sets retry_backoff without a maximum, or no backoff at all.
CELERY_DEFAULT_BACKOFF_MAX = 600
CELERY_DEFAULT_RETRY_DELAY = 180


def delay_errors() -> list[str]:
    """Each task or periodic entry whose longest wait in a worker, plus its time limit,
    reaches the broker's visibility timeout (Redis) or consumer timeout (RabbitMQ)."""
    from learning_platform.celery import app, import_task_modules

    import_task_modules()
    visibility = broker.ack_timeout()
    delays_count = broker.delays_wait_in_worker()
    window = "visibility timeout" if delays_count else "consumer timeout"
    default_limit = settings.CELERY_TASK_TIME_LIMIT or 0
    errors = []
    if default_limit >= visibility:
        errors.append(
            f"CELERY_TASK_TIME_LIMIT ({default_limit} s) must stay under the {window} "
            f"({visibility} s)."
        )
    for task in app.tasks.values():
        if task.name.startswith("celery."):
            continue
        limit = task.time_limit or default_limit
        if limit >= visibility and task.time_limit:
            errors.append(f"Task {task.name}: a time limit of {limit} s reaches the {window}.")
        if not delays_count:
            continue  # RabbitMQ: retries and countdowns wait in the broker's delay queues
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
    if not delays_count:
        return errors
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


# Hosts that name the machine the server runs on: from anywhere else a link to them is dead.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0", ""})  # noqa: S104


def local_link_settings() -> list[str]:
    """The settings e-mail links are built from that still point at this machine (their
    development default, http://127.0.0.1:8000, or any other loopback address)."""
    return [
        name
        for name in ("FRONTEND_URL", "PUBLIC_API_URL")
        if (urlsplit(getattr(settings, name)).hostname or "") in LOOPBACK_HOSTS
    ]


@register(Tags.security, deploy=True)
def check_public_link_origins(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: Any
) -> list[CheckWarning]:
    return [
        CheckWarning(
            f"{name} is {getattr(settings, name)}: every link in e-mails (verification, "
            "password reset, replies, unsubscribe) would point at the server's own machine, "
            "dead for the learners who get them.",
            hint=f"Set {name} to the public origin learners reach, e.g. https://app.example.com.",
            id="learning_platform.W001",
        )
        for name in local_link_settings()
    ]
