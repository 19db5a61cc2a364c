"""Gzip for the answers a signed-out visitor gets: the server-rendered pages (a lesson's first
answer is 30 to 60 KB of HTML) and the API's JSON. A phone on a slow network gets them in a
third of the bytes.

Compression and secrets (BREACH): an attacker who can put text into a compressed answer next to
a secret of the victim's, and see the answer's length, can guess the secret. So only answers to
reads (GET, HEAD) that carry no credentials (no session cookie, no session token or
Authorization header) are compressed (a sign-in's answer, a POST, can hold a new session token), and never the admin's: such an answer holds no secret of the requester
(no session data; the CSRF token is a cookie, never in a page or JSON body). Answers to a
signed-in learner go as they are.
Django's GZipMiddleware also pads each answer by a random length ("Heal the Breach"). Static
files are not seen here: WhiteNoise answers them earlier, pre-compressed (docs/security.md).
"""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware

from learning_platform.credentials import carries_credentials

COMPRESSED_TYPES = ("text/html", "application/json", "application/xml", "text/plain")
SKIPPED_PREFIXES = ("/admin/",)


class PublicGZipMiddleware(GZipMiddleware):
    """GZipMiddleware for answers to requests without credentials, of text types only."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not should_compress(request, response):
            return response
        return super().process_response(request, response)


def should_compress(request: HttpRequest, response: HttpResponseBase) -> bool:
    if request.method not in ("GET", "HEAD"):
        return False
    if carries_credentials(request):
        return False
    if request.path.startswith(SKIPPED_PREFIXES) or response.streaming:
        return False
    content_type = response.get("Content-Type", "").split(";")[0].strip()
    return content_type in COMPRESSED_TYPES or content_type.endswith("+json")
