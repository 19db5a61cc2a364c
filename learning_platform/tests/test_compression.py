"""Signed-out pages and API reads are gzipped; anything a signed-in learner gets is not (BREACH)."""

import gzip

import pytest
from django.conf import settings
from django.http import HttpResponse

from learning_platform.compression import should_compress
from lessons.tests.factories import QuestFactory, d_model_lesson

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
INDEX = (
    b'<!doctype html><html><head><meta charset="UTF-8" /><!--app-head--><title>x</title>'
    b'<!--/app-head--></head><body><div id="root"><!--app-html--></div></body></html>'
)


@pytest.fixture
def lesson(db, tmp_path, settings):
    (tmp_path / "index.html").write_bytes(INDEX)
    settings.WEB_DIST_DIR = tmp_path
    d_model_lesson(QuestFactory(slug="transformers"))
    return "/lessons/embedding-dimension"


def test_a_signed_out_lesson_page_is_gzipped_and_reads_the_same(client, lesson):
    plain = client.get(lesson)
    packed = client.get(lesson, **GZIP)
    assert packed.status_code == plain.status_code == 200
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content)


def test_a_signed_out_api_read_is_gzipped(client, lesson):
    response = client.get("/api/v1/lessons/embedding-dimension/", **GZIP)
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"


def test_a_signed_in_learners_page_and_reads_are_not_compressed(client, lesson, django_user_model):
    user = django_user_model.objects.create_user(
        email="gz@example.com", password="x-long-password-1"
    )
    client.force_login(user)
    assert settings.SESSION_COOKIE_NAME in client.cookies
    for path in (lesson, "/api/v1/session", "/api/v1/lessons/embedding-dimension/"):
        response = client.get(path, **GZIP)
        assert response.status_code == 200, path
        assert not response.has_header("Content-Encoding"), path


def test_token_requests_writes_and_the_admin_are_not_compressed(rf):
    body = HttpResponse("x" * 500, content_type="application/json")
    assert should_compress(rf.get("/api/v1/levels/"), body)
    assert not should_compress(rf.get("/api/v1/levels/", HTTP_X_SESSION_TOKEN="t"), body)
    assert not should_compress(rf.get("/api/v1/levels/", HTTP_AUTHORIZATION="Bearer t"), body)
    assert not should_compress(rf.post("/_allauth/app/v1/auth/login"), body)
    assert not should_compress(rf.get("/admin/login/"), HttpResponse("x" * 500))
    assert not should_compress(
        rf.get("/favicon.png"), HttpResponse(b"x" * 500, content_type="image/png")
    )
