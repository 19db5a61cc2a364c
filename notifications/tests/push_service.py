"""A push service on a local port for the tests: it records what the server posts (path,
headers, encrypted body) and answers with the statuses queued, 201 once they run out. The
browser's side is real too: a P-256 key pair and auth secret, so a test decrypts what arrived
exactly as the browser would (RFC 8291, aes128gcm)."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Pushed:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Browser:
    """One subscribed browser: its keys, as PushSubscription.toJSON() gives them."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)

    def read(self, pushed: Pushed) -> dict[str, Any]:
        plain = http_ece.decrypt(
            pushed.body, private_key=self.key, auth_secret=self.auth_secret, version="aes128gcm"
        )
        return json.loads(plain)


class PushService:
    def __init__(self) -> None:
        self.pushed: list[Pushed] = []
        self.statuses: list[int] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                service.pushed.append(Pushed(self.path, dict(self.headers.items()), body))
                status = service.statuses.pop(0) if service.statuses else 201
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def browser(self, name: str) -> Browser:
        host, port = self._server.server_address[:2]
        return Browser(endpoint=f"http://{host}:{port}/push/{name}")

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
