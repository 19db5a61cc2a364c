from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from learning_platform import health, media, scrape, web_app
from learning_platform.admin_pages import name_admin_site
from learning_platform.api.index import ApiIndexView

name_admin_site()

api_v1: list[URLPattern | URLResolver] = [
    path("", ApiIndexView.as_view(), name="api-index"),
    path("", include("accounts.urls")),
    path("", include("lessons.urls")),
    path("", include("pages.urls")),
    path("", include("progress.urls")),
    path("", include("leagues.urls")),
    path("", include("achievements.urls")),
    path("", include("exercises.urls")),
    path("", include("reviews.urls")),
    path("", include("community.urls")),
    path("", include("notifications.urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("_allauth/", include("allauth.headless.urls")),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path(
        "api/redoc/",
        SpectacularRedocView.as_view(
            url_name="schema", template_name="learning_platform/redoc.html"
        ),
        name="api-redoc",
    ),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", scrape.metrics_view, name="metrics"),
    # The LTI 1.3 tool: platforms' logins, launches and deep linking, the tool's keys.
    path("lti/", include("lti.urls")),
    # Uploaded lesson images, when they are on this server's disk (learning_platform/media.py).
    *media.media_urls(),
    # The app's pages answered with their content, robots.txt and sitemap.xml.
    path("", include("pages.web_urls")),
    # Last: every other GET is a route of the web app, answered by its index.html.
    re_path(web_app.CLIENT_ROUTE, web_app.web_app, name="web-app"),
]

handler400 = "learning_platform.api.errors.handler400"
handler403 = "learning_platform.api.errors.handler403"
handler404 = "learning_platform.api.errors.handler404"
handler500 = "learning_platform.api.errors.handler500"
