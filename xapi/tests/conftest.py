"""A fake LRS on 127.0.0.1 for the tests: it checks each statement's xAPI shape, stores it
by id (a statement it holds already changes nothing; the same id with other content is a
409 for the whole request, as the spec says) and can be taken down."""

from __future__ import annotations

import json
import re
import threading
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from pydantic import ValidationError
from ralph.models.xapi.base.statements import BaseXapiStatement

from lessons.tests.factories import CHOICE_CHECK, CheckBlockFactory, LessonFactory

IRI = re.compile(r"^[a-z][a-z0-9+.-]*://\S+$", re.IGNORECASE)


def shape_errors(statement: dict[str, Any]) -> list[str]:
    """What makes `statement` not a valid xAPI 1.0.3 statement: Ralph's model of a statement
    (what `ralph validate -f xapi` and its LRS check), and what this site promises besides."""
    errors = []
    try:
        BaseXapiStatement.model_validate(statement)
    except ValidationError as error:
        errors += [f"ralph: {e['loc']}: {e['msg']}" for e in error.errors()]
    try:
        uuid.UUID(statement["id"])
    except (KeyError, ValueError):
        errors.append("id is not a UUID")
    actor = statement.get("actor") or {}
    account = actor.get("account") or {}
    if not (IRI.match(account.get("homePage", "")) and account.get("name")):
        errors.append("actor has no account (homePage IRL, name)")
    if "mbox" in actor:
        errors.append("actor carries an e-mail address")
    verb = statement.get("verb") or {}
    if not IRI.match(verb.get("id", "")) or not verb.get("display"):
        errors.append("verb id is not an IRI or has no display")
    obj = statement.get("object") or {}
    if obj.get("objectType") != "Activity" or not IRI.match(obj.get("id", "")):
        errors.append("object is not an Activity with an IRI id")
    if not IRI.match(((obj.get("definition") or {}).get("type")) or ""):
        errors.append("activity has no type IRI")
    result = statement.get("result")
    if result is not None:
        if "success" in result and not isinstance(result["success"], bool):
            errors.append("result.success is not a boolean")
        if "duration" in result and not re.match(r"^PT\d+(\.\d+)?S$", result["duration"]):
            errors.append("result.duration is not an ISO 8601 duration")
    try:
        datetime.fromisoformat(statement["timestamp"].replace("Z", "+00:00"))
    except (KeyError, ValueError):
        errors.append("timestamp is not ISO 8601")
    return errors


@dataclass
class FakeLrs:
    url: str = ""
    stored: dict[str, dict[str, Any]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    down: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)


def _handler(lrs: FakeLrs) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _answer(self, status: int, body: Any) -> None:
            if lrs.requests:
                lrs.requests[-1]["status"] = status
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            batch = body if isinstance(body, list) else [body]
            with lrs.lock:
                lrs.requests.append(
                    {
                        "path": self.path,
                        "version": self.headers.get("X-Experience-API-Version"),
                        "count": len(batch),
                    }
                )
                if lrs.down:
                    self._answer(503, {"error": "down"})
                    return
                if self.path != "/xapi/statements":
                    self._answer(404, {})
                    return
                for statement in batch:
                    errors = shape_errors(statement)
                    if errors:
                        self._answer(400, {"errors": errors})
                        return
                    held = lrs.stored.get(statement["id"])
                    if held is not None and held != statement:
                        self._answer(409, {"conflict": statement["id"]})
                        return
                for statement in batch:
                    lrs.stored.setdefault(statement["id"], statement)
                self._answer(200, [s["id"] for s in batch])

    return Handler


@pytest.fixture
def fake_lrs(settings):
    lrs = FakeLrs()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(lrs))
    lrs.url = f"http://127.0.0.1:{server.server_address[1]}/xapi"
    settings.XAPI_LRS_URL = lrs.url
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield lrs
    server.shutdown()
    server.server_close()


@pytest.fixture
def lesson():
    """A lesson of 130 XP in two checks (numeric, choice): passing both completes it, unlocks
    the first achievement and lifts a new learner over level 1 (120 XP)."""
    lesson = LessonFactory(slug="head-size", xp=130)
    CheckBlockFactory(lesson=lesson, position=1)
    CheckBlockFactory(lesson=lesson, position=2, spec=dict(CHOICE_CHECK))
    return lesson
