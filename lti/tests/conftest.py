"""A fake LTI platform for the tests: its RSA key pair and JWKS, signed id_tokens, and a
local HTTP server (127.0.0.1 only) answering its key set, token and score endpoints and
recording what the tool sends."""

from __future__ import annotations

import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from lti_tool.models import Key, LtiDeployment, LtiRegistration

ISSUER = "https://platform.example"
CLIENT_ID = "tool-client-1"
DEPLOYMENT_ID = "deployment-1"
PLATFORM_KID = "platform-key-1"
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
DL_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"


def new_private_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


# Generating a 2048-bit key takes a while: one for the platform, one for the tool, per process.
_PLATFORM_KEY = new_private_key()
_TOOL_KEY = new_private_key()


def tool_key_pem() -> tuple[str, str]:
    private = _TOOL_KEY.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    public = (
        _TOOL_KEY.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return public, private


@dataclass
class FakePlatform:
    """What the platform's server received, and how it answers the next score posts."""

    base_url: str = ""
    key: Any = None
    kid: str = PLATFORM_KID
    token_requests: list[dict[str, Any]] = field(default_factory=list)
    score_posts: list[dict[str, Any]] = field(default_factory=list)
    # Scores as a platform keeps them: one per learner, line item and timestamp.
    gradebook: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)
    fail_next_scores: list[int] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def jwks(self) -> dict[str, Any]:
        jwk = json.loads(RSAAlgorithm.to_jwk(self.key.public_key()))
        jwk.update({"kid": self.kid, "alg": "RS256", "use": "sig"})
        return {"keys": [jwk]}

    def lineitem_url(self, name: str = "1") -> str:
        return f"{self.base_url}/lineitems/{name}"

    def id_token(
        self,
        *,
        nonce: str,
        message_type: str = "LtiResourceLinkRequest",
        sub: str = "platform-user-1",
        custom: dict[str, str] | None = None,
        lineitem: str | None = None,
        key: Any = None,
        kid: str | None = None,
        **overrides: Any,
    ) -> str:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": ISSUER,
            "aud": CLIENT_ID,
            "sub": sub,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            "name": "Ada Learner",
            "email": "ada@school.example",
            CLAIM + "version": "1.3.0",
            CLAIM + "message_type": message_type,
            CLAIM + "deployment_id": DEPLOYMENT_ID,
            CLAIM + "target_link_uri": "https://tool.example/lti/launch/",
            CLAIM + "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
            CLAIM + "context": {"id": "course-1", "title": "Course one"},
            CLAIM + "custom": custom or {},
        }
        if message_type == "LtiResourceLinkRequest":
            claims[CLAIM + "resource_link"] = {"id": "link-1", "title": "The lesson"}
        if message_type == "LtiDeepLinkingRequest":
            claims[CLAIM + "roles"] = [
                "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
            ]
            claims[DL_CLAIM] = {
                "deep_link_return_url": f"{self.base_url}/deep-link-return",
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["iframe", "window"],
                "data": "opaque-platform-data",
            }
        if lineitem:
            claims[AGS_CLAIM] = {
                "scope": [SCORE_SCOPE, LINEITEM_SCOPE],
                "lineitem": lineitem,
                "lineitems": f"{self.base_url}/lineitems",
            }
        for name, value in overrides.items():
            if value is None:
                claims.pop(name, None)
            else:
                claims[name] = value
        return jwt.encode(
            claims, key or self.key, algorithm="RS256", headers={"kid": kid or self.kid}
        )


def _handler(platform: FakePlatform) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _answer(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/jwks":
                self._answer(200, platform.jwks())
            else:
                self._answer(404, {})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode()
            path = urlparse(self.path).path
            if path == "/token":
                form = {k: v[0] for k, v in parse_qs(raw).items()}
                with platform.lock:
                    platform.token_requests.append(form)
                self._answer(
                    200, {"access_token": "token-1", "token_type": "Bearer", "expires_in": 3600}
                )
                return
            if path.startswith("/lineitems/") and path.endswith("/scores"):
                with platform.lock:
                    failing = platform.fail_next_scores.pop(0) if platform.fail_next_scores else 0
                    record = {
                        "path": path,
                        "authorization": self.headers.get("Authorization"),
                        "content_type": self.headers.get("Content-Type"),
                        "score": json.loads(raw),
                        "status": failing or 200,
                    }
                    platform.score_posts.append(record)
                    if not failing:
                        score = record["score"]
                        platform.gradebook[(score["userId"], path, score["timestamp"])] = score
                if failing:
                    self._answer(failing, {"error": "unavailable"})
                else:
                    self._answer(200, {})
                return
            self._answer(404, {})

    return Handler


@pytest.fixture
def fake_platform():
    platform = FakePlatform(key=_PLATFORM_KEY)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(platform))
    platform.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield platform
    server.shutdown()
    server.server_close()


@pytest.fixture
def registration(db, fake_platform):
    """The fake platform registered in the tool (as an admin does), with one active
    deployment and the tool's first key (rotate_keys)."""
    Key.objects.generate()
    registration = LtiRegistration.objects.create(
        name="Fake platform",
        issuer=ISSUER,
        client_id=CLIENT_ID,
        auth_url=f"{fake_platform.base_url}/auth",
        token_url=f"{fake_platform.base_url}/token",
        keyset_url=f"{fake_platform.base_url}/jwks",
    )
    LtiDeployment.objects.create(
        registration=registration, deployment_id=DEPLOYMENT_ID, is_active=True
    )
    return registration


def start_login(client, **params: str) -> tuple[str, str]:
    """The platform's OIDC login initiation, in a browser that keeps cookies (the new-window
    step of the cookie check); the state and nonce the tool sent to the platform."""
    query = {
        "iss": ISSUER,
        "client_id": CLIENT_ID,
        "login_hint": "platform-user-1",
        "target_link_uri": "https://tool.example/lti/launch/",
        "lti_message_hint": "hint",
        "lti1p3_new_window": "1",
        **params,
    }
    response = client.get("/lti/login/", query)
    assert response.status_code == 302, response.content
    redirect = parse_qs(urlparse(response["Location"]).query)
    return redirect["state"][0], redirect["nonce"][0]


def post_form(client, url: str, data: dict[str, str]):
    """A form POST, as the platform's auto-submitted form sends it (also from an APIClient)."""
    return client.post(url, urlencode(data), content_type="application/x-www-form-urlencoded")


def post_launch(client, state: str, id_token: str):
    return post_form(client, "/lti/launch/", {"state": state, "id_token": id_token})


def launch(client, platform: FakePlatform, **token_args: Any):
    state, nonce = start_login(client)
    return post_launch(client, state, platform.id_token(nonce=nonce, **token_args))


def continue_to_app(client, response) -> str:
    """Follow the launch into the web app, as the learner's click does; the app's path."""
    assert response.status_code == 200, response.content
    html = response.content.decode()
    start = html.index('href="/lti/continue/') + len('href="')
    url = html[start : html.index('"', start)]
    opened = client.get(url)
    assert opened.status_code == 302
    return opened["Location"]


@pytest.fixture
def new_uuid() -> str:
    return uuid.uuid4().hex
