"""The learners' web app served at `/`: its build's files, its client routes, and a clear page
when it is not built. WEB_DIST_DIR points at a fake build in a temporary directory."""

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core import mail

from accounts.tests.factories import UserFactory
from community import services
from lessons.tests.factories import LessonFactory
from notifications import services as notification_services

INDEX = b'<!doctype html><html><head><script type="module" src="/assets/index-BVWHmVHu.js"></script></head><body><div id="root"></div></body></html>'
SCRIPT = b"console.log('app');"
# Lessons and quests answer with their content (pages/tests/test_web.py).
CLIENT_ROUTES = [
    "/",
    "/achievements",
    "/leaderboard",
    "/notifications",
    "/settings",
    "/signin",
    "/signup",
    "/account/verify-email/MQ:1tXyZa:abc-DEF_123",
    "/account/password/reset/key/1a-c9x-0123456789abcdef",
    "/account/password/reset",
]


@pytest.fixture
def built_app(tmp_path, settings):
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_bytes(INDEX)
    (tmp_path / "assets" / "index-BVWHmVHu.js").write_bytes(SCRIPT)
    (tmp_path / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (tmp_path / "sw.js").write_text("define(['./workbox-9390b00f'], function () {});")
    (tmp_path / "workbox-9390b00f.js").write_text("define([], function () {});")
    (tmp_path / "manifest.webmanifest").write_text('{"name": "Learning Platform"}')
    settings.WEB_DIST_DIR = tmp_path
    return tmp_path


@pytest.fixture
def unbuilt_app(tmp_path, settings):
    settings.WEB_DIST_DIR = tmp_path / "dist"


@pytest.mark.parametrize("path", CLIENT_ROUTES)
def test_client_route_answers_the_apps_index_html(client, built_app, path):
    response = client.get(path)

    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response.content == INDEX


def test_index_html_is_revalidated_on_every_use(client, built_app):
    response = client.get("/leaderboard")

    assert response["Cache-Control"] == "no-cache"
    assert response["ETag"]


def test_index_html_answers_304_for_a_current_etag(client, built_app):
    etag = client.get("/").headers["ETag"]

    response = client.get("/settings", HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 304
    assert response.content == b""


def test_a_new_build_changes_the_index_etag(client, built_app):
    etag = client.get("/").headers["ETag"]
    (built_app / "index.html").write_bytes(INDEX.replace(b"BVWHmVHu", b"Zx81Qp0a"))

    response = client.get("/", HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 200
    assert b"index-Zx81Qp0a.js" in response.content


def test_head_of_a_client_route_answers_200(client, built_app):
    assert client.head("/leaderboard").status_code == 200


def test_hashed_asset_is_cached_for_a_year_as_immutable(client, built_app):
    response = client.get("/assets/index-BVWHmVHu.js")

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == SCRIPT
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "max-age=315360000, public, immutable"


def test_index_html_by_its_file_name_is_not_cached_either(client, built_app):
    response = client.get("/index.html")

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-cache"


def test_other_files_of_the_build_are_served_with_a_short_cache(client, built_app):
    response = client.get("/favicon.svg")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert "immutable" not in response["Cache-Control"]


def test_service_worker_is_javascript_revalidated_on_every_use(client, built_app):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"


def test_service_workers_workbox_runtime_is_javascript_with_a_short_cache(client, built_app):
    response = client.get("/workbox-9390b00f.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "immutable" not in response["Cache-Control"]


def test_web_app_manifest_has_its_media_type(client, built_app):
    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert "immutable" not in response["Cache-Control"]


def test_a_missing_hashed_asset_is_404_not_the_index(client, built_app):
    response = client.get("/assets/index-OLDHASH1.js")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"


@pytest.mark.parametrize("path", ["/api/v1/no-such-endpoint/", "/api/nothing", "/api"])
def test_unknown_api_path_stays_a_json_404(client, built_app, path):
    response = client.get(path)

    assert response.status_code == 404
    assert response.json()["type"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "status", "content_type"),
    [
        ("/api/v1/", 200, "application/json"),
        ("/api/v1/levels/", 200, "application/json"),
        ("/_allauth/browser/v1/config", 200, "application/json"),
        ("/healthz", 200, "application/json"),
        ("/api/docs/", 200, "text/html; charset=utf-8"),
        ("/static/no-such-file.css", 404, "application/json"),
    ],
)
def test_server_paths_keep_answering_as_before(client, built_app, path, status, content_type):
    response = client.get(path)

    assert response.status_code == status
    assert response["Content-Type"] == content_type
    assert response.content != INDEX


@pytest.mark.django_db
def test_admin_keeps_its_own_pages(client, built_app):
    assert client.get("/admin").status_code == 301
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


@pytest.mark.django_db
def test_unsubscribe_link_is_not_taken_by_the_app(client, built_app):
    response = client.get("/api/v1/unsubscribe/not-a-token")

    # The API's own answer (an unknown token is 404 in its error shape), not the app's page.
    assert response.status_code == 404
    assert response.json()["type"] == "not_found"


def test_writing_to_a_client_route_is_405_in_the_error_shape(client, built_app):
    response = client.post("/lessons/embedding-dimension", {})

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert response.json()["type"] == "method_not_allowed"


@pytest.mark.parametrize("path", ["/", "/leaderboard"])
def test_without_a_build_the_app_answers_503_saying_to_run_make_web(client, unbuilt_app, path):
    response = client.get(path)

    assert response.status_code == 503
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert b"make web" in response.content
    assert "no-store" in response["Cache-Control"]


def test_without_a_build_the_api_still_answers(client, unbuilt_app):
    assert client.get("/healthz").status_code == 200


# --- Links in e-mails open the app's pages on this server (embedded mode) --------------------


def link_in(message, prefix: str) -> str:
    match = re.search(re.escape(prefix) + r"\S+", message.body)
    assert match, message.body
    return match.group(0)


@pytest.mark.django_db
def test_email_links_point_at_this_server_by_default(settings):
    assert settings.FRONTEND_URL == "http://127.0.0.1:8000"
    assert settings.HEADLESS_FRONTEND_URLS == {
        "account_confirm_email": "http://127.0.0.1:8000/account/verify-email/{key}",
        "account_reset_password": "http://127.0.0.1:8000/account/password/reset",
        "account_reset_password_from_key": "http://127.0.0.1:8000/account/password/reset/key/{key}",
        "account_signup": "http://127.0.0.1:8000/account/signup",
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("request_path", "body", "link_path"),
    [
        (
            "/_allauth/app/v1/auth/signup",
            {"email": "new@example.com", "password": "S3cure-passw0rd!"},
            "/account/verify-email/",
        ),
        (
            "/_allauth/app/v1/auth/password/request",
            {"email": "reset@example.com"},
            "/account/password/reset/key/",
        ),
    ],
)
def test_account_email_link_opens_the_apps_page(
    client, built_app, settings, django_capture_on_commit_callbacks, request_path, body, link_path
):
    UserFactory(email="reset@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(request_path, body, content_type="application/json")
    link = link_in(mail.outbox[-1], f"{settings.FRONTEND_URL}{link_path}")

    response = client.get(urlsplit(link).path)

    assert response.status_code == 200
    assert response.content == INDEX


@pytest.mark.django_db
def test_reply_notification_email_links_to_the_apps_lesson_page_at_the_comment(
    client, built_app, settings
):
    lesson = LessonFactory(slug="embedding-dimension", title="Embedding dimension")
    author, replier = UserFactory(), UserFactory()
    comment = services.post_comment(author=author, lesson=lesson, body="What is d_model?")
    reply = services.post_comment(
        author=replier, lesson=lesson, body="The width.", parent_id=comment.id
    )
    services.notify_about_comment(comment_id=reply.id)

    delivery = notification_services.prepare_notification_digest(user_id=author.id)

    link = f"{settings.FRONTEND_URL}/lessons/embedding-dimension#comment-{reply.id}"
    assert link in delivery.text_body
    page = client.get(urlsplit(link).path)
    assert page.status_code == 200
    assert b"<title>Embedding dimension \xc2\xb7 Learning Platform</title>" in page.content


ROOT = Path(__file__).resolve().parents[2]
# A script of the build large enough that its gzip copy is worth keeping.
LARGE_SCRIPT = b"".join(b"export const line%d = 'the same words again';\n" % n for n in range(400))


@pytest.mark.parametrize("debug", [False, True], ids=["production", "DEBUG (make run)"])
def test_the_build_writes_compressed_copies_that_are_served_to_who_asks(
    client, tmp_path, settings, debug
):
    settings.DEBUG = debug
    dist = tmp_path / "web" / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_bytes(INDEX)
    (dist / "assets" / "index-BVWHmVHu.js").write_bytes(LARGE_SCRIPT)
    settings.WEB_DIST_DIR = dist
    # The step `make web` (scripts/web.sh build) runs on Vite's build once it is written.
    subprocess.run(
        [ROOT / "scripts" / "web.sh", "compress"],
        env={**os.environ, "WEB_DIR": str(dist.parent), "PY": sys.executable},
        check=True,
    )
    assert (dist / "assets" / "index-BVWHmVHu.js.gz").exists()

    compressed = client.get("/assets/index-BVWHmVHu.js", HTTP_ACCEPT_ENCODING="gzip, br")
    plain = client.get("/assets/index-BVWHmVHu.js")

    assert compressed.status_code == plain.status_code == 200
    assert compressed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in compressed["Vary"]
    assert gzip.decompress(b"".join(compressed.streaming_content)) == LARGE_SCRIPT
    assert "Content-Encoding" not in plain
    assert b"".join(plain.streaming_content) == LARGE_SCRIPT
