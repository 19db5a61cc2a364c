"""The admin site's name and its error pages: under /admin/ errors answer as admin pages (HTML
in the admin's layout), everywhere else the API's JSON error shape (learning_platform.api.errors).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse


def name_admin_site() -> None:
    admin.site.site_header = f"{settings.SITE_NAME} admin"
    admin.site.site_title = f"{settings.SITE_NAME} admin"
    admin.site.index_title = "Content, learners and reports"


def is_admin_request(request: HttpRequest) -> bool:
    return request.path.startswith(reverse("admin:index"))


def admin_error_page(request: HttpRequest, *, status: int, template: str) -> HttpResponse:
    try:
        context = admin.site.each_context(request)
    except Exception:  # the page must render even when what broke is the database
        context = {"site_header": admin.site.site_header, "site_title": admin.site.site_title}
    return HttpResponse(render_to_string(template, context, request=request), status=status)
