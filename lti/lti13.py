"""The one module that speaks LTI 1.3 through django-lti and pylti1p3.

Everything else in the app works with the plain values defined here (`Launch`, `ScoreToSend`,
`LaunchRefused`), so a fork can replace the libraries (pylti1p3 is in bugfix-only mode) by
rewriting this module alone. What the libraries leave out is checked here too: pylti1p3 keeps
a launch's nonce valid after use (the single use is `lti.services`' table) and django-lti
creates a deployment it does not know, where this tool refuses the launch.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

import requests
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from lti_tool.models import Key, LtiDeployment, LtiRegistration
from lti_tool.utils import DjangoToolConfig
from lti_tool.views import OIDCLoginInitView
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoMessageLaunch
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException, LtiServiceException, OIDCException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.service_connector import ServiceConnector

logger = logging.getLogger(__name__)

# Seconds any call to a platform may take (its keys, its token endpoint, its score service).
PLATFORM_TIMEOUT = 10

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
NO_KEY = "The tool has no key yet: its operator runs `manage.py rotate_keys`."
RESOURCE_LINK = "LtiResourceLinkRequest"
DEEP_LINKING = "LtiDeepLinkingRequest"


class LaunchRefused(Exception):
    """A launch or login this tool does not accept; `code` names why, `status` is 4xx."""

    def __init__(self, code: str, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class ScoreNotSent(Exception):
    """The platform did not take a score; `permanent` when sending it again cannot help."""

    def __init__(self, message: str, *, permanent: bool) -> None:
        super().__init__(message)
        self.permanent = permanent


@dataclass(frozen=True)
class Launch:
    """A launch that passed every check of the library (state, signature by kid, issuer,
    audience, expiry, deployment, message type). The nonce's single use and `azp` are checked
    by the caller (`lti.services.accept_launch`)."""

    launch_id: str
    registration_id: int
    issuer: str
    client_id: str
    audiences: tuple[str, ...]
    authorized_party: str
    deployment_id: str
    subject: str
    nonce: str
    message_type: str
    name: str
    custom: dict[str, str] = field(default_factory=dict)
    lineitem_url: str = ""
    ags_scopes: tuple[str, ...] = ()
    # Where the platform shows the tool: "iframe", "window" (a tab of its own), "embed".
    document_target: str = "iframe"


@dataclass(frozen=True)
class DeepLinkItem:
    title: str
    url: str
    custom: dict[str, str]
    # A line item asks the platform for a gradebook column (for lessons: their score).
    score_maximum: float | None = None


@dataclass(frozen=True)
class ScoreToSend:
    registration_id: int
    lineitem_url: str
    scopes: tuple[str, ...]
    platform_user_id: str
    score_given: float
    score_maximum: float
    activity_progress: str
    timestamp: str


class _TimeoutSession(requests.Session):
    """pylti1p3 calls platforms without a timeout: a platform that hangs would hold a launch
    or a worker for ever."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", PLATFORM_TIMEOUT)
        return super().request(*args, **kwargs)


class _ToolConfig(DjangoToolConfig):  # type: ignore[misc]  # lti_tool (django-lti) has no types
    """django-lti's configuration, except that a deployment must be registered and active
    (the library creates any deployment id a platform sends)."""

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        return self.find_deployment_by_params(iss, deployment_id, None)

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str | None, *args: Any, **kwargs: Any
    ) -> Deployment | None:
        lookups: dict[str, Any] = {
            "registration__issuer": iss,
            "registration__is_active": True,
            "deployment_id": deployment_id,
            "is_active": True,
        }
        if client_id is not None:
            lookups["registration__client_id"] = client_id
        deployment = LtiDeployment.objects.filter(**lookups).first()
        if deployment is None:
            return None
        self.deployment = deployment
        return Deployment().set_deployment_id(deployment.deployment_id)


# What pylti1p3 says, by the start of its message, and what this tool tells the platform.
_REFUSALS: list[tuple[str, str, str, int]] = [
    ("Missing state", "state_mismatch", "The launch carried no state.", 400),
    ("State not found", "state_mismatch", "The launch's state does not match this browser's.", 403),
    ("Missing id_token", "bad_token", "The launch carried no id_token.", 400),
    ("Invalid id_token", "bad_token", "The id_token is not a JWT.", 400),
    ("Invalid JWT format", "bad_token", "The id_token is not a JWT.", 400),
    ('"nonce" is empty', "bad_nonce", "The id_token has no nonce.", 400),
    ("Invalid Nonce", "bad_nonce", "The id_token's nonce was not issued for this login.", 403),
    ('"iss" is empty', "unknown_platform", "The id_token names no issuer.", 400),
    (
        "Registration not found",
        "unknown_platform",
        "No platform is registered for this issuer and audience.",
        403,
    ),
    (
        "Client id not registered",
        "unknown_platform",
        "The audience is not this tool's client id.",
        403,
    ),
    ("JWT KID not found", "unknown_key", "The id_token names no key.", 403),
    ("JWT ALG not found", "unknown_key", "The id_token names no algorithm.", 403),
    (
        "Unable to find public key",
        "unknown_key",
        "The platform's key set has no key with this id.",
        403,
    ),
    (
        "Error during fetch URL",
        "platform_keys_unavailable",
        "The platform's key set could not be read.",
        400,
    ),
    (
        "Invalid response from",
        "platform_keys_unavailable",
        "The platform's key set is not JSON.",
        400,
    ),
    ("Can't decode id_token: Signature has expired", "expired", "The id_token has expired.", 403),
    (
        "Can't decode id_token: The token is not yet valid",
        "not_yet_valid",
        "The id_token is not valid yet.",
        403,
    ),
    ("Can't decode id_token", "bad_signature", "The id_token's signature does not verify.", 403),
    (
        "Unable to find deployment",
        "unknown_deployment",
        "This deployment is not registered with the tool.",
        403,
    ),
    ("Invalid message type", "bad_message", "The launch has no message type.", 400),
    (
        "Unrecognized message type",
        "bad_message",
        "The launch's message type is not supported.",
        400,
    ),
    ("Incorrect version", "bad_message", "The launch is not LTI 1.3.0.", 400),
    (
        "Message validation failed",
        "bad_message",
        "The launch lacks a claim its message type needs.",
        400,
    ),
]


def _refusal(error: Exception) -> LaunchRefused:
    text = str(error)
    for start, code, message, status in _REFUSALS:
        if text.startswith(start):
            return LaunchRefused(code, message, status)
    return LaunchRefused("invalid_launch", "The launch is not valid.", 400)


def _launch_data_storage() -> DjangoCacheDataStorage:
    # pylti1p3's Django classes have no annotations on their constructors.
    return DjangoCacheDataStorage()  # type: ignore[no-untyped-call]


def _message_launch(request: HttpRequest) -> DjangoMessageLaunch:
    return DjangoMessageLaunch(  # type: ignore[no-untyped-call]  # as _launch_data_storage
        request,
        _ToolConfig(),
        launch_data_storage=_launch_data_storage(),
        requests_session=_TimeoutSession(),
    )


def validate_launch(request: HttpRequest) -> Launch:
    """Validate an LTI 1.3 launch (its POSTed id_token and state); raises LaunchRefused."""
    message_launch = _message_launch(request)
    try:
        message_launch.validate()
    except (LtiException, OIDCException) as error:
        raise _refusal(error) from error
    except Key.DoesNotExist as error:
        raise LaunchRefused("no_tool_key", NO_KEY, 403) from error
    body: dict[str, Any] = dict(message_launch.get_launch_data())
    tool_config: _ToolConfig = message_launch.get_tool_conf()
    ags = body.get(AGS_CLAIM) or {}
    aud = body.get("aud")
    audiences = tuple(aud) if isinstance(aud, list) else (str(aud),)
    custom = body.get(CLAIM + "custom") or {}
    presentation = body.get(CLAIM + "launch_presentation") or {}
    return Launch(
        launch_id=message_launch.get_launch_id(),
        registration_id=tool_config.registration.pk,
        issuer=str(body["iss"]),
        client_id=audiences[0],
        audiences=audiences,
        authorized_party=str(body.get("azp") or ""),
        deployment_id=str(body[CLAIM + "deployment_id"]),
        subject=str(body.get("sub") or ""),
        nonce=str(body["nonce"]),
        message_type=str(body[CLAIM + "message_type"]),
        name=str(body.get("name") or body.get("given_name") or "")[:100],
        custom={str(k): str(v) for k, v in custom.items()} if isinstance(custom, dict) else {},
        lineitem_url=str(ags.get("lineitem") or ""),
        ags_scopes=tuple(str(scope) for scope in ags.get("scope") or ()),
        document_target=str(presentation.get("document_target") or "iframe"),
    )


class _LoginView(OIDCLoginInitView):  # type: ignore[misc]  # as _ToolConfig
    main_msg = (
        "Your browser does not let this course keep its sign-in inside the page of your "
        "learning platform."
    )
    click_msg = "Open the course in a new window."

    def get_redirect_url(self, target_link_uri: str) -> str:
        # The platform sends the id_token to the launch URL registered with it, whatever the
        # link's target: the target is read from the launch's claims.
        return str(self.request.build_absolute_uri(reverse("lti:launch")))


def login_response(request: HttpRequest, registration_uuid: str | None = None) -> HttpResponse:
    """Answer a platform's OIDC login initiation: a redirect to its authorization endpoint
    with a state (also set as a cookie) and a nonce, after a page that checks the browser
    keeps cookies in the LMS's frame and offers a new window when it does not."""
    params = request.POST if request.method == "POST" else request.GET
    # The library checks the platform only after the cookie check page: refuse first.
    lookups: dict[str, Any] = {"issuer": params.get("iss", "")}
    if params.get("client_id"):
        lookups["client_id"] = params["client_id"]
    if registration_uuid is not None:
        lookups["uuid"] = registration_uuid
    if not LtiRegistration.objects.active().filter(**lookups).exists():
        raise LaunchRefused("unknown_platform", "No platform is registered for this issuer.", 400)
    view = _LoginView()
    view.setup(request, registration_uuid=registration_uuid)
    try:
        response: HttpResponse = view.get_oidc_response(request, registration_uuid, params)
        return response
    except (LtiException, OIDCException) as error:
        raise LaunchRefused("unknown_platform", str(error), 400) from error
    except Key.DoesNotExist as error:
        raise LaunchRefused("no_tool_key", NO_KEY, 403) from error


def jwks() -> dict[str, Any]:
    """The tool's public keys (the active ones), as platforms fetch them."""
    keys: dict[str, Any] = Key.objects.as_jwks()
    return keys


def deep_link_response(
    request: HttpRequest, launch_id: str, items: list[DeepLinkItem]
) -> tuple[str, str]:
    """The platform's return URL and the signed LtiDeepLinkingResponse naming `items`, for
    the deep linking launch `launch_id` (kept in the cache by its validation)."""
    try:
        message_launch = DjangoMessageLaunch.from_cache(
            launch_id, request, _ToolConfig(), launch_data_storage=_launch_data_storage()
        )
    except LtiException as error:
        raise LaunchRefused(
            "launch_expired", "This selection has expired: open it again from the platform.", 400
        ) from error
    if not message_launch.is_deep_link_launch():
        raise LaunchRefused("bad_message", "This launch did not ask for content.", 400)
    resources = []
    for item in items:
        resource = (
            DeepLinkResource()
            .set_url(item.url)
            .set_title(item.title)
            .set_custom_params(item.custom)
        )
        if item.score_maximum is not None:
            resource.set_lineitem(
                LineItem().set_label(item.title).set_score_maximum(item.score_maximum)
            )
        resources.append(resource)
    deep_link = message_launch.get_deep_link()
    settings_claim = message_launch.get_launch_data()[
        "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
    ]
    return str(settings_claim["deep_link_return_url"]), str(deep_link.get_response_jwt(resources))


def send_score(score: ScoreToSend) -> dict[str, Any]:
    """POST one score to the platform's line item (AGS); returns what the platform answered.
    Raises ScoreNotSent (permanent for a 4xx other than 408/429)."""
    registration = LtiRegistration.objects.get(pk=score.registration_id)
    grade = (
        Grade()
        .set_score_given(score.score_given)
        .set_score_maximum(score.score_maximum)
        .set_timestamp(score.timestamp)
        .set_activity_progress(score.activity_progress)
        .set_grading_progress("FullyGraded")
        .set_user_id(score.platform_user_id)
    )
    connector = ServiceConnector(registration.to_registration(), requests_session=_TimeoutSession())
    url = score.lineitem_url.split("?", 1)
    scores_url = url[0].rstrip("/") + "/scores" + (f"?{url[1]}" if len(url) > 1 else "")
    try:
        answer = connector.make_service_request(
            list(score.scopes),
            scores_url,
            is_post=True,
            data=grade.get_value(),
            content_type="application/vnd.ims.lis.v1.score+json",
        )
    except LtiServiceException as error:
        status = error.response.status_code
        permanent = 400 <= status < 500 and status not in (408, 429)
        raise ScoreNotSent(f"{status}: {error.response.text[:500]}", permanent=permanent) from error
    except requests.RequestException as error:
        raise ScoreNotSent(str(error), permanent=False) from error
    body = answer.get("body")
    return body if isinstance(body, dict) else {"body": json.dumps(body)}
