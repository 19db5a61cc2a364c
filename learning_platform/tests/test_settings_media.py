"""Where uploaded files go: the file system by default, an S3-compatible bucket by setting."""

import re
from importlib.util import find_spec

import pytest
from django.core.exceptions import ImproperlyConfigured

from learning_platform.tests.test_settings import BASE_DIR, load_settings


def test_uploads_go_to_the_file_system_under_the_project_by_default():
    settings = load_settings(DEBUG="1")

    assert settings.STORAGES["default"] == {
        "BACKEND": "django.core.files.storage.FileSystemStorage"
    }
    assert (settings.MEDIA_ROOT, settings.MEDIA_URL) == (BASE_DIR / "media", "/media/")
    assert "media/" in (BASE_DIR / ".gitignore").read_text().split()


def test_media_root_comes_from_the_environment():
    settings = load_settings(DEBUG="1", MEDIA_ROOT="/srv/media")

    assert str(settings.MEDIA_ROOT) == "/srv/media"


@pytest.mark.skipif(find_spec("storages") is not None, reason="django-storages is installed")
def test_s3_without_django_storages_stops_the_process_saying_what_to_install():
    with pytest.raises(ImproperlyConfigured, match=re.escape("django-storages[s3]>=1.14")):
        load_settings(DEBUG="1", MEDIA_STORAGE="s3", MEDIA_S3_BUCKET="lessons")


def test_s3_names_the_bucket_endpoint_and_credentials(monkeypatch):
    # As if the optional extra were installed: the settings only look it up.
    monkeypatch.setattr("learning_platform.settings_media.find_spec", lambda name: object())

    settings = load_settings(
        DEBUG="1",
        MEDIA_STORAGE="s3",
        MEDIA_S3_BUCKET="lessons",
        MEDIA_S3_ENDPOINT_URL="https://minio.internal:9000",
        MEDIA_S3_REGION="eu-west-1",
        MEDIA_S3_ACCESS_KEY_ID="key",
        MEDIA_S3_SECRET_ACCESS_KEY="secret",
    )

    assert settings.STORAGES["default"] == {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": "lessons",
            "querystring_auth": False,
            "file_overwrite": False,
            "location": "media",
            "endpoint_url": "https://minio.internal:9000",
            "region_name": "eu-west-1",
            "access_key": "key",
            "secret_key": "secret",
        },
    }


def test_s3_without_a_bucket_or_an_unknown_storage_is_refused(monkeypatch):
    monkeypatch.setattr("learning_platform.settings_media.find_spec", lambda name: object())

    with pytest.raises(ImproperlyConfigured, match="MEDIA_S3_BUCKET"):
        load_settings(DEBUG="1", MEDIA_STORAGE="s3")
    with pytest.raises(ImproperlyConfigured, match="MEDIA_STORAGE must be one of"):
        load_settings(DEBUG="1", MEDIA_STORAGE="ftp")


def test_with_s3_this_server_routes_no_media(settings):
    from learning_platform import media

    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "storages.backends.s3.S3Storage"},
    }

    assert media.media_urls() == []
