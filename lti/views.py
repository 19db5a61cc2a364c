"""The LTI tool's HTTP endpoints: thin, the work is in lti13 (the protocol) and services.

Platforms POST here from other sites, in an iframe: these views are exempt from CSRF (the
id_token, its state and nonce are what prove the request) and from X-Frame-Options. A refusal
is a short page with a 4xx status that says why, never a 500.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import login
from django.core import signing
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from lti import lti13, selectors, services

# A signed link from a launch to the web app is good for this long, once.
CONTINUE_MAX_AGE = 300
CONTINUE_SALT = "lti.continue"
AUTH_BACKEND = "accounts.backends.CachedModelBackend"


def _refused(request: HttpRequest, refusal: lti13.LaunchRefused) -> HttpResponse:
    return render(
        request,
        "lti/refused.html",
        {"code": refusal.code, "message": refusal.message},
        status=refusal.status,
    )


@require_GET
def jwks(request: HttpRequest) -> JsonResponse:
    """The tool's public keys; platforms verify its messages and service tokens with them."""
    return JsonResponse(lti13.jwks())


@csrf_exempt
@xframe_options_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def oidc_login(request: HttpRequest, registration_uuid: str | None = None) -> HttpResponse:
    try:
        return lti13.login_response(request, registration_uuid)
    except lti13.LaunchRefused as refusal:
        return _refused(request, refusal)


@csrf_exempt
@xframe_options_exempt
@never_cache
@require_POST
def launch(request: HttpRequest) -> HttpResponse:
    try:
        accepted = lti13.validate_launch(request)
        services.accept_launch(launch=accepted)
        if accepted.message_type == lti13.DEEP_LINKING:
            return _deep_linking_page(request, accepted)
        user = services.account_for_launch(launch=accepted)
        target = services.launch_target(launch=accepted)
        if target.lesson_id is not None:
            services.link_grades(user=user, launch=accepted, lesson_id=target.lesson_id)
    except lti13.LaunchRefused as refusal:
        return _refused(request, refusal)
    token = signing.dumps(
        {"user": user.pk, "path": target.path, "once": uuid.uuid4().hex}, salt=CONTINUE_SALT
    )
    continue_url = reverse("lti:continue", kwargs={"token": token})
    if accepted.document_target == "window":
        return HttpResponse(status=302, headers={"Location": continue_url})
    # In the platform's frame the web app cannot show (it refuses to be framed, and browsers
    # keep its session cookie out of third-party frames): the learner opens it in a window.
    return render(
        request, "lti/open_in_window.html", {"continue_url": continue_url, "path": target.path}
    )


@never_cache
@require_GET
def continue_launch(request: HttpRequest, token: str) -> HttpResponse:
    """Sign the launched learner in, first-party, and open the lesson or quest."""
    try:
        data: dict[str, Any] = signing.loads(token, salt=CONTINUE_SALT, max_age=CONTINUE_MAX_AGE)
        user = services.use_continue_token(user_id=int(data["user"]), once=str(data["once"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return _refused(
            request,
            lti13.LaunchRefused(
                "link_expired", "This link has expired: open the activity again.", 400
            ),
        )
    except lti13.LaunchRefused as refusal:
        return _refused(request, refusal)
    login(request, user, backend=AUTH_BACKEND)
    return HttpResponse(status=302, headers={"Location": str(data["path"])})


def _deep_linking_page(request: HttpRequest, accepted: lti13.Launch) -> HttpResponse:
    return render(
        request,
        "lti/deep_link.html",
        {"launch_id": accepted.launch_id, "choices": selectors.content_choices()},
    )


# No CSRF token: the page is in the platform's frame, where the tool's cookies may not come
# back. The launch id (random, kept in the cache by a validated deep linking launch) is what
# authorises the pick.
@csrf_exempt
@xframe_options_exempt
@never_cache
@require_POST
def deep_link_pick(request: HttpRequest) -> HttpResponse:
    launch_id = request.POST.get("launch_id", "")
    kind, _, slug = request.POST.get("choice", "").partition(":")
    choice = selectors.find_choice(kind=kind, slug=slug)
    if not launch_id or choice is None:
        return _refused(
            request, lti13.LaunchRefused("bad_choice", "Pick a quest or a lesson.", 400)
        )
    item = lti13.DeepLinkItem(
        title=choice["title"],
        url=request.build_absolute_uri(reverse("lti:launch")),
        custom={choice["kind"]: choice["slug"]},
        # A lesson is graded (the share of its checks passed): the platform makes a column.
        score_maximum=1.0 if choice["kind"] == "lesson" else None,
    )
    try:
        return_url, jwt = lti13.deep_link_response(request, launch_id, [item])
    except lti13.LaunchRefused as refusal:
        return _refused(request, refusal)
    return render(request, "lti/deep_link_return.html", {"return_url": return_url, "jwt": jwt})
