from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from rest_framework import pagination
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.views import APIView


class PageNumberPagination(pagination.PageNumberPagination):
    """`?page=N&page_size=M`; answers `{count, next, previous, results}`.

    A `page` or `page_size` that is not a whole number in range is refused (400, naming the
    parameter) rather than quietly replaced by the default; a page past the last one is 404.
    """

    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_size(self, request: Request) -> int | None:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        return _whole_number(
            raw, name=self.page_size_query_param, minimum=1, maximum=self.max_page_size
        )

    def get_page_number(self, request: Request, paginator: Paginator[Any]) -> int | str:
        raw = request.query_params.get(self.page_query_param)
        if raw is None or raw in self.last_page_strings:
            return super().get_page_number(request, paginator)
        return _whole_number(raw, name=self.page_query_param, minimum=1)

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.page_query_param: {"minimum": 1},
            self.page_size_query_param: {"minimum": 1, "maximum": self.max_page_size},
        }
        for parameter in parameters:
            parameter["schema"] = {**parameter["schema"], **bounds.get(parameter["name"], {})}
        return parameters


def _whole_number(raw: str, *, name: str, minimum: int, maximum: int | None = None) -> int:
    limits = f"from {minimum} to {maximum}" if maximum is not None else f"from {minimum}"
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or value < minimum or (maximum is not None and value > maximum):
        raise ValidationError({name: [f"A whole number {limits}."]})
    return value
