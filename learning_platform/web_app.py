"""Serving the learners' web app (the Vite build in WEB_DIST_DIR) at `/`.

Files of the build are served by WhiteNoise: `/assets/...` (content-hashed names) cached for a
year as immutable, everything else at the build's root (`/favicon.svg`, `/manifest.webmanifest`,
...) briefly, and the service worker `/sw.js` revalidated on every use like `index.html`. Every
other GET outside the server's own prefixes is a client route of the app and answers its
`index.html`, never cached without revalidation, so a new deployment is picked up at once.

`app_page` is that `index.html` with a page's own first answer put in: tags for its `<head>`
(in place of the default title and description between `<!--app-head-->` and
`<!--/app-head-->`), markup for `<div id="root">` (at `<!--app-html-->`) and the API's JSON the
app starts from (`<script type="application/json" id="lp-initial-data">`). The apps that own
pages build those parts (pages/web.py); the kernel only puts them in.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from whitenoise.media_types import MediaTypes
from whitenoise.middleware import WhiteNoiseMiddleware

from learning_platform.api.errors import json_error

# Vite's `build.assetsDir`: every file in it has a content hash in its name.
HASHED_ASSETS_PREFIX = "/assets/"
# vite-plugin-pwa's service worker (web/vite.config.ts), at the root so its scope is the site.
SERVICE_WORKER_URL = "/sw.js"
# WhiteNoise's table has no entry for the web app manifest, which then is not recognised.
MEDIA_TYPES = {".webmanifest": "application/manifest+json"}
# Paths the server answers itself (or, for a missing hashed asset, answers 404): a GET of
# them or below them never falls back to the app.
SERVER_PATHS = ("api", "_allauth", "admin", "static", "assets", "healthz", "readyz")
_SERVER_PATH = "|".join(re.escape(name) for name in SERVER_PATHS)
CLIENT_ROUTE = rf"^(?!(?:{_SERVER_PATH})(?:/|$)).*$"


def dist_dir() -> Path:
    return Path(settings.WEB_DIST_DIR)


class WebAppWhiteNoiseMiddleware(WhiteNoiseMiddleware):  # type: ignore[misc]  # WhiteNoise has no types
    """WhiteNoise for the static files and the web app's build."""

    def __init__(
        self,
        get_response: Callable[[HttpRequest], HttpResponse] | None = None,
        settings: Any = settings,
    ) -> None:
        super().__init__(get_response, settings=settings)
        self.media_types = MediaTypes(extra_types=MEDIA_TYPES)
        root = dist_dir()
        # With autorefresh (DEBUG) a build made after start-up is found on the next request.
        if self.autorefresh or root.is_dir():
            self.add_files(str(root))

    def immutable_file_test(self, path: str, url: str) -> bool:
        return url.startswith(HASHED_ASSETS_PREFIX) or super().immutable_file_test(path, url)

    def add_cache_headers(self, headers: dict[str, str], path: str, url: str) -> None:
        super().add_cache_headers(headers, path, url)
        # The page shell, and the service worker: a new deployment's worker is found at once.
        if url in ("/index.html", SERVICE_WORKER_URL):
            headers["Cache-Control"] = "no-cache"


HEAD_START = b"<!--app-head-->"
HEAD_END = b"<!--/app-head-->"
HTML_SLOT = b"<!--app-html-->"
ROOT = b'<div id="root">'
INITIAL_DATA_ID = "lp-initial-data"
# JSON in a <script> element: `<`, `>` and `&` as JSON escapes (as Django's json_script does),
# so no `</script>` or `<!--` can end or bend the element; the JSON's value is unchanged.
_SCRIPT_SAFE = ((b"<", b"\\u003C"), (b">", b"\\u003E"), (b"&", b"\\u0026"))


def web_app(request: HttpRequest, path: str = "") -> HttpResponse:
    """The app's `index.html` for any client route; the router in the browser takes over."""
    return app_page(request)


def app_page(
    request: HttpRequest,
    *,
    head: str = "",
    html: str = "",
    data: bytes | None = None,
    status: int = 200,
    private: bool = False,
) -> HttpResponse:
    """The app's `index.html` with `head` in place of its default title and description,
    `html` in its root element and `data` (JSON) embedded for the app; all three already
    escaped by the caller (JSON is made safe for its script element here). Revalidated on
    every use (ETag); `private` for an answer that depends on who asks."""
    if request.method not in ("GET", "HEAD"):
        response: HttpResponse = json_error(
            status_code=405,
            code="method_not_allowed",
            detail=f'Method "{request.method}" not allowed.',
        )
        response["Allow"] = "GET, HEAD"
        return response
    try:
        index = (dist_dir() / "index.html").read_bytes()
    except FileNotFoundError:
        return _not_built(request)
    body = _fill(index, head=head.encode(), html=html.encode(), data=data)
    etag = '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'
    response = HttpResponse(body, status=status, content_type="text/html; charset=utf-8")
    response["ETag"] = etag
    if private:
        patch_cache_control(response, private=True, no_cache=True)
    else:
        patch_cache_control(response, no_cache=True)
    if head or html or data is not None:
        # The same address answers a signed-in learner differently (private, their marks).
        patch_vary_headers(response, ("Cookie",))
    if status != 200:
        return response
    # Given a response, Django answers it or a 304; `or` only satisfies the stubs' Optional.
    return get_conditional_response(request, etag=etag, response=response) or response


def script_json(data: bytes) -> bytes:
    """JSON bytes safe inside a <script> element, parsing to the same value."""
    for char, escape in _SCRIPT_SAFE:
        data = data.replace(char, escape)
    return data


def _fill(index: bytes, *, head: bytes, html: bytes, data: bytes | None) -> bytes:
    """`index` with the parts put in; a build without the markers gets them before
    `</head>` and at the start of the root element."""
    if data is not None:
        html += (
            f'<script type="application/json" id="{INITIAL_DATA_ID}">'.encode()
            + script_json(data)
            + b"</script>"
        )
    if head:
        start, end = index.find(HEAD_START), index.find(HEAD_END)
        if 0 <= start < end:
            index = index[:start] + head + index[end + len(HEAD_END) :]
        else:
            index = index.replace(b"</head>", head + b"</head>", 1)
    if html:
        if HTML_SLOT in index:
            index = index.replace(HTML_SLOT, html, 1)
        else:
            index = index.replace(ROOT, ROOT + html, 1)
    return index


def _not_built(request: HttpRequest) -> HttpResponse:
    html = render_to_string(
        "learning_platform/web_app_not_built.html",
        {"dist_dir": dist_dir(), "path": request.path},
        request=request,
    )
    response = HttpResponse(html, status=503, content_type="text/html; charset=utf-8")
    patch_cache_control(response, no_store=True)
    return response
