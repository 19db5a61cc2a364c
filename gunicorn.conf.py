"""gunicorn's settings for every web process of learning-platform.

gunicorn reads ./gunicorn.conf.py by itself when started from the repository's root (the
image's WORKDIR); the image and scripts also name it with `--config`.

Requests that gunicorn refuses before the API sees them (a request line over
`limit_request_line`: 414; too many or too large headers: 431; a malformed request line or
header: 400) are answered in the API's error shape (`learning_platform.api.errors`), JSON
like every other error, instead of gunicorn's HTML page. gunicorn has no setting for its
error page: its one writer, `gunicorn.util.write_error`, is replaced here, before any worker
starts. `learning_platform/tests/test_gunicorn.py` starts gunicorn with this file and
checks each of them, so a gunicorn upgrade that changes the writer fails CI.

Its access and error logs (`--access-logfile -` in the image) keep no key of an e-mailed link:
`logger_class` filters their records as the app's own logs are filtered.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import sys
import tempfile
from typing import Any

import gunicorn.glogging
import gunicorn.util

# prometheus-client's multiprocess mode (learning_platform/metrics.py): each worker writes its
# metrics to files in this directory and /metrics adds every worker's up. It must be set before
# a worker imports prometheus_client; without one of the operator's, this server makes its own.
_OWN_METRICS_DIR = not os.environ.get("PROMETHEUS_MULTIPROC_DIR")
if _OWN_METRICS_DIR:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="lp-metrics-")


def on_starting(server: Any) -> None:
    """An earlier run's files would be added to this one's counts."""
    directory = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        if name.endswith(".db"):
            os.remove(os.path.join(directory, name))


def child_exit(server: Any, worker: Any) -> None:
    """A worker exited: its live gauges go; its counts stay in the sums."""
    from prometheus_client import multiprocess

    # prometheus_client's multiprocess functions have no annotations.
    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def on_exit(server: Any) -> None:
    if _OWN_METRICS_DIR:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


# gunicorn's defaults, stated: they bound what a request line and headers may cost a worker.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

# (type, title) per status gunicorn answers itself; the titles are the API's (TITLES).
_ERRORS = {
    400: ("bad_request", "Bad request."),
    403: ("permission_denied", "Permission denied."),
    414: ("uri_too_long", "URI too long."),
    417: ("expectation_failed", "Expectation failed."),
    431: ("header_fields_too_large", "Request header fields too large."),
    500: ("server_error", "Server error."),
    501: ("not_implemented", "Not implemented."),
}
_DETAILS = {
    400: "The request line or a header is malformed.",
    414: f"The request line is over {limit_request_line} bytes: shorten the URL or query.",
    431: "The request has too many headers or a header is too large.",
}


def write_json_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's error writer, answering the API's error body instead of an HTML page.

    `mesg` (gunicorn's message, which quotes the request) is left out, as the API leaves
    internals out of its errors.
    """
    code, title = _ERRORS.get(status_int, ("error", "Error."))
    body = json.dumps(
        {
            "type": code,
            "title": title,
            "status": status_int,
            "detail": _DETAILS.get(status_int, f"{reason}."),
            "errors": {},
        }
    ).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode("latin-1")
    gunicorn.util.write_nonblock(sock, head + body)


gunicorn.util.write_error = write_json_error


class _RedactSecrets(logging.Filter):
    """The keys of e-mailed links (a password reset, an address confirmation, an unsubscribe)
    in a request line, path or Referer of gunicorn's access and error logs become
    `<redacted>` (learning_platform/secret_urls.py). A worker has loaded the app, and with it
    the paths to redact, before it logs a request; the master logs none and imports nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        module = sys.modules.get("learning_platform.secret_urls")
        if module is not None:
            module.redact_record(record)
        return True


class RedactingLogger(gunicorn.glogging.Logger):  # type: ignore[misc]  # gunicorn has no types
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            log.addFilter(_RedactSecrets())


logger_class = RedactingLogger
