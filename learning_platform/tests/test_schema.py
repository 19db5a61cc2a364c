"""The OpenAPI schema says what the API does: every answer it can give, every body it takes."""

import pytest

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from drf_spectacular.generators import SchemaGenerator

    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema):
    for path, item in schema["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def test_the_block_discriminator_maps_each_kind_to_its_schema(schema):
    mapping = schema["components"]["schemas"]["Block"]["discriminator"]["mapping"]

    assert mapping == {
        "prose": "#/components/schemas/ProseBlock",
        "callout": "#/components/schemas/CalloutBlock",
        "table": "#/components/schemas/TableBlock",
        "code": "#/components/schemas/CodeBlock",
        "check": "#/components/schemas/CheckBlock",
    }


def test_every_operation_documents_the_errors_every_request_can_meet(schema):
    missing = [
        (method.upper(), path, code)
        for path, method, operation in operations(schema)
        for code in ("401", "403", "406")
        if code not in operation["responses"]
    ]

    assert missing == []


def test_operations_with_a_path_parameter_document_404(schema):
    missing = [
        (method.upper(), path)
        for path, method, operation in operations(schema)
        if "{" in path and "404" not in operation["responses"]
    ]

    assert missing == []


def test_operations_with_a_body_or_query_parameters_document_400_413_and_415(schema):
    missing = []
    for path, method, operation in operations(schema):
        takes_body = "requestBody" in operation
        takes_query = any(p["in"] == "query" for p in operation.get("parameters", []))
        needed = (["400", "413", "415"] if takes_body else []) + (["400"] if takes_query else [])
        missing += [(method.upper(), path, c) for c in needed if c not in operation["responses"]]

    assert missing == []


def test_throttled_and_conditional_operations_document_429_and_304(schema):
    paths = schema["paths"]

    assert "429" in paths["/api/v1/lessons/{slug}/comments/"]["post"]["responses"]
    assert "429" in paths["/api/v1/me/progress/sync"]["post"]["responses"]
    assert "304" in paths["/api/v1/lessons/{slug}/"]["get"]["responses"]
    assert "304" in paths["/api/v1/achievements/"]["get"]["responses"]


def test_error_answers_carry_the_error_body_schema(schema):
    error = schema["components"]["schemas"]["Error"]
    responses = schema["paths"]["/api/v1/exercises/{exercise_id}/submissions/"]["post"]["responses"]

    assert set(error["required"]) == {"type", "title", "status", "detail", "errors"}
    assert responses["429"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    assert "304" not in responses


def test_paginated_lists_bound_page_size_in_the_schema(schema):
    (page_size,) = [
        p for p in schema["paths"]["/api/v1/lessons/"]["get"]["parameters"]
        if p["name"] == "page_size"
    ]  # fmt: skip

    assert page_size["schema"] == {"type": "integer", "minimum": 1, "maximum": 100}


def test_a_view_that_renders_pages_documents_its_errors_as_pages_too(schema):
    not_found = schema["paths"]["/api/v1/unsubscribe/{token}"]["get"]["responses"]["404"]

    assert set(not_found["content"]) == {"application/json", "text/html"}


def test_the_display_name_pattern_in_the_schema_is_the_rule_the_api_applies(schema):
    import re

    from learning_platform.text import has_control_characters

    name = schema["components"]["schemas"]["PatchedProfileInputRequest"]["properties"][
        "display_name"
    ]
    (pattern,) = [v["pattern"] for v in name["anyOf"] if v.get("maxLength") == 60]
    samples = ["Ada", "Eve\r\nBcc: x", "Zero\u200bwidth", "Bidi\u202eevil", "Émile 李", "\x7f"]

    assert [re.search(pattern, s) is None for s in samples] == [
        has_control_characters(s) for s in samples
    ]


def test_text_inputs_say_a_nul_character_is_refused(schema):
    import re

    (search,) = [
        p for p in schema["paths"]["/api/v1/lessons/"]["get"]["parameters"]
        if p["name"] == "search"
    ]  # fmt: skip
    body = schema["components"]["schemas"]["CommentInputRequest"]["properties"]["body"]

    assert re.search(search["schema"]["pattern"], "a\x00b") is None
    assert re.search(body["pattern"], "a\x00b") is None
    assert re.search(body["pattern"], "Hello, wörld") is not None


def test_text_inputs_that_refuse_a_blank_say_whitespace_alone_is_blank(schema):
    import re

    body = schema["components"]["schemas"]["CommentInputRequest"]["properties"]["body"]

    assert re.search(body["pattern"], " \x1c\t ") is None
    assert re.search(body["pattern"], " a ") is not None


def test_operations_with_query_parameters_document_the_servers_414(schema):
    responses = schema["paths"]["/api/v1/lessons/{slug}/comments/"]["get"]["responses"]

    # gunicorn answers it in the API's error body (gunicorn.conf.py; test_gunicorn.py).
    assert responses["414"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
