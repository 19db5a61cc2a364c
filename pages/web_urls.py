"""The learners' web app's pages the server answers with their content (pages/web.py), and
what crawlers read (pages/sitemaps.py); included before the app's catch-all route."""

from django.urls import path, re_path

from pages import sitemaps, web

SLUG = r"(?P<slug>[-a-zA-Z0-9_]+)"

urlpatterns = [
    # As the app links them (no trailing slash), and with one.
    re_path(rf"^lessons/{SLUG}/?$", web.lesson, name="web-lesson"),
    re_path(rf"^quests/{SLUG}/?$", web.quest, name="web-quest"),
    path("sitemap.xml", sitemaps.sitemap, name="sitemap"),
    path("robots.txt", sitemaps.robots, name="robots"),
]
