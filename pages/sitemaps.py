"""`sitemap.xml` (Django's stock sitemaps) and `robots.txt` for crawlers: the published quests
and lessons at their addresses on FRONTEND_URL, with their last change. Both are kept in the
cache under the content version, so a publish, an edit or a scheduled lesson whose time came
shows at once; drafts never appear."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps.views import sitemap as sitemap_view
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.cache import patch_cache_control

from learning_platform import versioned
from lessons import selectors as lessons

# Client routes that are about an account, not content (web/src/app/router.tsx).
PRIVATE_ROUTES = (
    "/signin",
    "/signup",
    "/account/",
    "/settings",
    "/progress",
    "/notifications",
)
SERVER_ROUTES = ("/admin/", "/api/", "/_allauth/")


# Sitemap is generic in django-stubs only: at run time it takes no type argument.
class FrontendSitemap(Sitemap):  # type: ignore[type-arg]
    """Addresses on FRONTEND_URL, whatever host the request came in on."""

    def get_protocol(self, protocol: str | None = None) -> str:
        return urlsplit(settings.FRONTEND_URL).scheme

    def get_domain(self, site: Any = None) -> str:
        return urlsplit(settings.FRONTEND_URL).netloc


class QuestSitemap(FrontendSitemap):
    def items(self) -> list[lessons.Quest]:
        return list(lessons.quest_list())

    def location(self, item: lessons.Quest) -> str:
        return f"/quests/{item.slug}"

    def lastmod(self, item: lessons.Quest) -> datetime:
        return item.updated_at


class LessonSitemap(FrontendSitemap):
    def items(self) -> list[lessons.Lesson]:
        return list(lessons.published_lessons().order_by("quest_id", "position", "id"))

    def location(self, item: lessons.Lesson) -> str:
        return f"/lessons/{item.slug}"

    def lastmod(self, item: lessons.Lesson) -> datetime:
        return item.updated_at


SITEMAPS: dict[str, type[Sitemap[Any]] | Sitemap[Any]] = {
    "quests": QuestSitemap,
    "lessons": LessonSitemap,
}


@versioned.cached(
    key=lambda request: f"pages:sitemap:{settings.FRONTEND_URL}",
    versions=lambda request: [versioned.CONTENT],
)
def _sitemap(request: HttpRequest) -> tuple[bytes, str | None]:
    response = sitemap_view(request, sitemaps=SITEMAPS)
    assert isinstance(response, TemplateResponse)
    response.render()
    return response.content, response.get("Last-Modified")


def sitemap(request: HttpRequest) -> HttpResponse:
    """`/sitemap.xml`: every published quest and lesson with its `lastmod`."""
    content, last_modified = _sitemap(request)
    response = HttpResponse(content, content_type="application/xml")
    if last_modified:
        response["Last-Modified"] = last_modified
    patch_cache_control(response, public=True, max_age=3600)
    return response


def robots(request: HttpRequest) -> HttpResponse:
    """`/robots.txt`: everything but the server's own paths and the account pages, and where
    the sitemap is."""
    lines = [
        "User-agent: *",
        "Allow: /",
        *(f"Disallow: {path}" for path in (*SERVER_ROUTES, *PRIVATE_ROUTES)),
        "",
        f"Sitemap: {settings.FRONTEND_URL}/sitemap.xml",
    ]
    response = HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
    patch_cache_control(response, public=True, max_age=86400)
    return response
