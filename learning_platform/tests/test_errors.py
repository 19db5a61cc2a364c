"""Every API error answers one JSON shape: {type, title, status, detail, errors}."""

import pytest

from learning_platform import errors as domain
from learning_platform.api.errors import TITLES, exception_handler

ERROR_KEYS = {"type", "title", "status", "detail", "errors"}


def test_unknown_api_path_answers_json_not_found(api_client):
    response = api_client.get("/api/v1/no-such-endpoint/")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "type": "not_found",
        "title": "Not found.",
        "status": 404,
        "detail": "No such resource or page.",
        "errors": {},
    }


@pytest.mark.parametrize("debug", [True, False], ids=["DEBUG (make run)", "production"])
@pytest.mark.parametrize(
    "path", ["/api/v1/no-such-endpoint/", "/api/nothing", "/api", "/_allauth/nothing"]
)
def test_unknown_api_path_is_a_json_404_with_debug_on_or_off(client, settings, debug, path):
    # Django answers an unknown path with its HTML debug page under DEBUG, not handler404.
    settings.DEBUG = debug

    response = client.get(path, HTTP_ACCEPT="text/html")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["type"] == "not_found"


def test_under_debug_a_path_missing_its_slash_still_redirects(client, settings):
    settings.DEBUG = True

    response = client.get("/api/v1/levels")

    assert (response.status_code, response["Location"]) == (301, "/api/v1/levels/")


def test_under_debug_an_unknown_admin_path_is_still_the_admins_page(admin_client, settings):
    settings.DEBUG = True

    response = admin_client.get("/admin/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_unknown_path_below_a_server_path_answers_json_not_found(api_client):
    # Other paths are the web app's client routes (learning_platform/tests/test_web_app.py).
    response = api_client.get("/healthz/no-such-page")

    assert response.status_code == 404
    assert set(response.json()) == ERROR_KEYS


@pytest.mark.django_db
def test_method_not_allowed_has_the_error_shape(user_client):
    response = user_client.delete("/api/v1/me/")

    assert response.status_code == 405
    body = response.json()
    assert set(body) == ERROR_KEYS
    assert body["type"] == "method_not_allowed"
    assert body["title"] == "Method not allowed."
    assert body["status"] == 405
    assert "DELETE" in body["detail"]


@pytest.mark.django_db
def test_validation_error_lists_messages_per_field(user_client):
    response = user_client.patch("/api/v1/me/", {"time_zone": "Mars/Olympus_Mons"}, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "validation_error"
    assert body["title"] == "Invalid input."
    assert body["status"] == 400
    assert body["detail"].startswith("time_zone: ")
    assert list(body["errors"]) == ["time_zone"]
    assert "not a known IANA time zone" in body["errors"]["time_zone"][0]


@pytest.mark.django_db
def test_an_error_inside_a_list_item_is_listed_under_its_dotted_path(user_client):
    answers = [
        {"id": "a", "check": 1, "answer": {}, "answered_at": "2026-01-01T00:00:00Z"},
        {"check": 1, "answer": {}, "answered_at": "2026-01-01T00:00:00Z"},
    ]
    response = user_client.post(
        "/api/v1/me/checks/sync", {"device_id": "d", "answers": answers}, format="json"
    )

    assert response.status_code == 400
    body = response.json()
    assert body["errors"] == {"answers.1.id": ["This field is required."]}
    assert body["detail"] == "answers.1.id: This field is required."


@pytest.mark.django_db
def test_malformed_json_is_a_parse_error(user_client):
    response = user_client.generic(
        "PATCH", "/api/v1/me/", data='{"display_name": ', content_type="application/json"
    )

    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "parse_error"
    assert body["errors"] == {}


@pytest.mark.django_db
def test_unsupported_media_type_has_the_error_shape(user_client):
    response = user_client.generic(
        "PATCH", "/api/v1/me/", data="display_name=x", content_type="text/plain"
    )

    assert response.status_code == 415
    assert response.json()["type"] == "unsupported_media_type"


@pytest.mark.django_db
def test_unauthenticated_request_is_refused_with_the_error_shape(api_client):
    response = api_client.patch("/api/v1/me/", {"display_name": "Ada"}, format="json")

    assert response.status_code == 401
    body = response.json()
    assert set(body) == ERROR_KEYS
    assert body["type"] == "not_authenticated"
    assert body["status"] == 401


def test_unexpected_exception_answers_a_generic_server_error(caplog):
    response = exception_handler(RuntimeError("database exploded"), {"view": None})

    assert response.status_code == 500
    assert response.data == {
        "type": "server_error",
        "title": "Server error.",
        "status": 500,
        "detail": "An unexpected error occurred.",
        "errors": {},
    }
    assert "database exploded" not in str(response.data)
    assert any(record.exc_info for record in caplog.records)


def test_openapi_schema_is_served(api_client):
    response = api_client.get("/api/schema/")

    assert response.status_code == 200
    assert b"openapi:" in response.content


def test_swagger_ui_is_served(api_client):
    response = api_client.get("/api/docs/")

    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


@pytest.mark.django_db
def test_an_oversized_body_answers_413_in_the_error_shape(user_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024

    response = user_client.patch("/api/v1/me/", {"display_name": "x" * 5000}, format="json")

    assert response.status_code == 413
    body = response.json()
    assert set(body) == ERROR_KEYS
    assert body["type"] == "payload_too_large"


@pytest.mark.django_db
def test_json_nested_too_deeply_is_a_400_not_a_crash(user_client):
    body = "[" * 100_000 + "]" * 100_000

    response = user_client.generic("PATCH", "/api/v1/me/", body, content_type="application/json")

    assert response.status_code == 400
    assert response.json()["type"] == "parse_error"


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        (domain.InvalidInput, 400),
        (domain.NotAllowed, 403),
        (domain.NotFound, 404),
        (domain.Conflict, 409),
        (domain.TooLarge, 413),
        (domain.Unavailable, 503),
    ],
)
def test_each_kind_of_domain_error_answers_its_status_in_the_error_shape(kind, status):
    class Specific(kind):
        code = "something_specific"

    response = exception_handler(Specific("Said why.", errors={"field": ["bad"]}), {"view": None})

    assert response.status_code == status
    assert response.data == {
        "type": "something_specific",
        "title": TITLES[status],
        "status": status,
        "detail": "Said why.",
        "errors": {"field": ["bad"]},
    }
