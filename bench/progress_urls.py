"""The project's URLs plus `bench/bare`, a bare JsonResponse view: the benchmark's baseline.
Served only under bench/progress_settings.py."""

from django.http import HttpRequest, JsonResponse
from django.urls import path

from learning_platform.urls import (  # noqa: F401 - the error handlers are looked up here
    handler400,
    handler403,
    handler404,
    handler500,
)
from learning_platform.urls import urlpatterns as project_urlpatterns


def bare(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


urlpatterns = [path("bench/bare", bare), *project_urlpatterns]
