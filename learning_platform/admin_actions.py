"""List actions that ask before they act, as Django's own "Delete selected" does.

An editor ticks rows and picks an action that learners feel at once (publishing, hiding a
thread, notifying reporters, awarding XP): a stray tick must not do that. The action first
answers a page naming what will change and what will be left as it is; the page posts the same
selection back with `post=yes`, and only then does the action act.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse


def confirmed(request: HttpRequest) -> bool:
    """Whether this is the confirmation page posting back (else: ask first)."""
    return request.POST.get("post") == "yes"


def ask_first(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    title: str,
    consequence: str,
    changes: Callable[[Any], bool],
    line: Callable[[Any], str] = str,
    unchanged_heading: str = "Left as they are",
) -> TemplateResponse:
    """The page that asks: the selected rows the action `changes`, each as its `line`, then
    those it leaves as they are; with none to change, it offers only the way back. One query
    (the caller's `queryset`, with what `line` reads selected)."""
    selected: list[Model] = list(queryset)
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "opts": model_admin.model._meta,
        "media": model_admin.media,
        "action": action,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "selected_ids": [row.pk for row in selected],
        "consequence": consequence,
        "changing": [line(row) for row in selected if changes(row)],
        "unchanged": [line(row) for row in selected if not changes(row)],
        "unchanged_heading": unchanged_heading,
    }
    request.current_app = model_admin.admin_site.name
    return TemplateResponse(request, "admin/confirm_action.html", context)
