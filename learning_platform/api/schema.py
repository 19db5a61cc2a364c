"""The schema documents every answer an operation can give, not only its success.

Every view gets the project's error body (`Error`) for the error statuses its requests can
meet, derived from what the operation is, so a new endpoint is documented without listing
them by hand: 401/403/406 anywhere (credentials, permissions, content negotiation), 400 where
it takes a body or query parameters, 413/415 with a body, 404 with a path parameter or a page
number, 429 where a throttle applies, 304 where an `If-None-Match` header is read, 414 (from
gunicorn, in the same error body: gunicorn.conf.py) with query parameters. Statuses a view documents itself keep their
description and gain the error body.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import ComponentRegistry
from rest_framework import serializers

from learning_platform.api.errors import TITLES


class ErrorSerializer(serializers.Serializer[None]):
    type = serializers.CharField(help_text="A stable, machine-readable code.")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField(help_text="A sentence for people.")
    # The metaclass moves declared fields off the class, so Serializer.errors stays as it is.
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Messages per field (empty when the error is not about one field).",
    )

    class Meta:
        ref_name = "Error"


# DRF refuses a NUL character in any text field (ProhibitNullCharactersValidator); say so.
NO_NUL_PATTERN = "^[^\\x00]*$"
# A field that trims whitespace and refuses a blank value also refuses one made of whitespace
# only (DRF strips it to ""): the schema says there is at least one other character.
NO_NUL_NOT_BLANK_PATTERN = "^[^\\x00]*[^\\s\\x00][^\\x00]*$"


class AutoSchema(SpectacularAutoSchema):
    def _map_serializer_field(
        self,
        field: serializers.Field[Any, Any, Any, Any],
        direction: str,
        bypass_extensions: bool = False,
    ) -> dict[str, Any]:
        # drf-spectacular leaves its AutoSchema's methods unannotated.
        schema: dict[str, Any] = super()._map_serializer_field(  # type: ignore[no-untyped-call]
            field, direction, bypass_extensions
        )
        if (
            direction == "request"
            and isinstance(field, serializers.CharField)
            and schema.get("type") == "string"
            and "pattern" not in schema
            and "format" not in schema
            # A field with its own pattern (slug, regex) gets it from its validator later.
            and not any(hasattr(v, "regex") for v in field.validators)
        ):
            schema["pattern"] = (
                NO_NUL_NOT_BLANK_PATTERN
                if field.trim_whitespace and not field.allow_blank
                else NO_NUL_PATTERN
            )
        return schema

    def _insert_field_validators(
        self, field: serializers.Field[Any, Any, Any, Any], schema: dict[str, Any]
    ) -> None:
        # drf-spectacular's AutoSchema methods are unannotated (as in _map_serializer_field).
        super()._insert_field_validators(field, schema)  # type: ignore[no-untyped-call]
        if {"type": "string", "maxLength": 0} in schema.get("oneOf", []):
            # drf-spectacular offers a blank value as a second choice, but the pattern takes
            # it too, and a value that fits both is refused by oneOf.
            schema["anyOf"] = schema.pop("oneOf")

    def get_tags(self) -> list[str]:
        """An operation's tag is its view's app (`progress`), unless the view names its own."""
        config = apps.get_containing_app_config(self.view.__module__)
        return [config.label] if config else super().get_tags()

    def get_operation(
        self,
        path: str,
        path_regex: str,
        path_prefix: str,
        method: str,
        registry: ComponentRegistry,
    ) -> dict[str, Any] | None:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation.setdefault("responses", {})
        error = {
            "application/json": {
                "schema": self.resolve_serializer(ErrorSerializer, "response").ref
            },
            # A view that also renders pages (the unsubscribe link) shows its errors as pages.
            **{
                renderer.media_type: {"schema": {"type": "string"}}
                for renderer in self.view.get_renderers()
                if renderer.media_type == "text/html"
            },
        }
        if any(p["in"] == "query" for p in operation.get("parameters", [])):
            # Answered by gunicorn (a request line over 4094 bytes) before the API sees the
            # request; gunicorn.conf.py makes it answer the same error body.
            responses.setdefault(
                "414",
                {"description": "URI too long: the query string is over the server's limit."},
            )
        for code in self._error_statuses(operation):
            responses.setdefault(code, {"description": TITLES.get(int(code), "Error.")})
        for code, response in responses.items():
            if code >= "400" and "content" not in response:
                response["content"] = error
        if any(
            p["in"] == "header" and p["name"].lower() == "if-none-match"
            for p in operation.get("parameters", [])
        ):
            responses.setdefault(
                "304", {"description": "Not modified: the `If-None-Match` ETag is current."}
            )
        return dict(operation, responses=dict(sorted(responses.items())))

    def _error_statuses(self, operation: dict[str, Any]) -> list[str]:
        parameters = operation.get("parameters", [])
        codes = ["401", "403", "406"]
        if "requestBody" in operation:
            codes += ["400", "413", "415"]
        if any(p["in"] == "query" for p in parameters):
            codes.append("400")
        # drf-spectacular's AutoSchema methods are unannotated (as in _map_serializer_field).
        paginated = self._get_paginator() is not None  # type: ignore[no-untyped-call]
        if any(p["in"] == "path" for p in parameters) or paginated:
            codes.append("404")
        if self.view.get_throttles():
            codes.append("429")
        return codes
