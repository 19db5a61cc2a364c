"""Serving uploaded files (lesson images) from MEDIA_ROOT, when they are kept on the file system.

With MEDIA_STORAGE=s3 the storage's own URLs point at the bucket and nothing is routed here.
Files are only ever written by the upload services (lessons/images.py: re-encoded images under
new names), so they are served as they are: no directory listings, a day of caching (a name is
never reused for other content while referenced), and a policy that lets nothing in a file run
if it is opened on its own.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import URLPattern, re_path
from django.utils.cache import patch_cache_control
from django.views.static import serve

FILE_SYSTEM_STORAGE = "django.core.files.storage.FileSystemStorage"
MEDIA_MAX_AGE = 24 * 3600


def serves_media() -> bool:
    """Whether this server answers MEDIA_URL: the files are on its disk, at a path of its own."""
    local = settings.STORAGES["default"]["BACKEND"] == FILE_SYSTEM_STORAGE
    return local and str(settings.MEDIA_URL).startswith("/") and settings.MEDIA_URL != "/"


def serve_media(request: HttpRequest, path: str) -> HttpResponseBase:
    response = serve(request, path, document_root=str(settings.MEDIA_ROOT), show_indexes=False)
    patch_cache_control(response, public=True, max_age=MEDIA_MAX_AGE)
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response


def media_urls() -> list[URLPattern]:
    """The route of MEDIA_URL, or none when the storage serves its files itself."""
    if not serves_media():
        return []
    prefix = re.escape(str(settings.MEDIA_URL).lstrip("/"))
    return [re_path(rf"^{prefix}(?P<path>.+)$", serve_media, name="media")]
