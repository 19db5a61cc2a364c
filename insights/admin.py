"""The admin's "how each lesson is doing": a page per quest and per lesson, charts as SVG."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from community.selectors import report_choice_labels
from exercises.selectors import RECENT_SUBMISSIONS_PER_EXERCISE
from insights import charts, selectors
from insights.models import QuestAnalytics
from learning_platform.admin_lists import ReadOnlyMixin
from lessons.selectors import lesson_with_quest

REPORT_CHART_SIZE = 15


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _url_for_ids(name: str) -> Callable[[int], str]:
    """`reverse(name, args=[id])` for many ids at the cost of one reverse (pages list ~100)."""
    marker = 987654321
    prefix, suffix = reverse(name, args=[marker]).split(str(marker))
    return lambda object_id: f"{prefix}{object_id}{suffix}"


def _share(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


@admin.register(QuestAnalytics)
# ModelAdmin is generic in django-stubs only: at run time it takes no type argument.
class QuestAnalyticsAdmin(ReadOnlyMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: the list of quests, each opening its analytics page."""

    list_display = ("title", "analytics_link")
    search_fields = ("title", "slug")
    search_help_text = "Part of a quest's title or slug."

    @admin.display(description="analytics")
    def analytics_link(self, quest: QuestAnalytics) -> str:
        url = reverse("admin:insights_questanalytics_quest", args=[quest.pk])
        return format_html('<a href="{}">How its lessons are doing</a>', url)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path(
                "<int:quest_id>/analytics/",
                view(self.quest_view),
                name="insights_questanalytics_quest",
            ),
            path(
                "lesson/<int:lesson_id>/",
                view(self.lesson_view),
                name="insights_questanalytics_lesson",
            ),
            *super().get_urls(),
        ]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        # A quest's "change" page is its analytics.
        return redirect("admin:insights_questanalytics_quest", quest_id=int(object_id))

    def _context(self, request: HttpRequest, title: str) -> dict[str, Any]:
        if not self.has_view_permission(request):
            raise PermissionDenied
        return {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": title,
            "recent_submissions": f"{RECENT_SUBMISSIONS_PER_EXERCISE:,}",
            "cache_seconds": settings.ANALYTICS_CACHE_SECONDS,
            "min_learners_for_median": selectors.MIN_LEARNERS_FOR_MEDIAN,
        }

    def quest_view(self, request: HttpRequest, quest_id: int) -> TemplateResponse:
        quest = get_object_or_404(QuestAnalytics, pk=quest_id)
        context = self._context(request, f"How “{quest.title}” is doing")
        data = selectors.quest_analytics(quest_id=quest.pk, refresh="refresh" in request.GET)
        lessons = data["lessons"]

        lesson_url = _url_for_ids("admin:insights_questanalytics_lesson")
        edit_url = _url_for_ids("admin:lessons_lesson_change")
        context.update(
            data=data,
            learners=f"{data['learners']:,}",
            report_chart_size=REPORT_CHART_SIZE,
            rows=[
                {
                    **row,
                    "url": lesson_url(row["id"]),
                    "edit_url": edit_url(row["id"]),
                    "exercise_rows": self._exercise_rows(row),
                }
                for row in lessons
            ],
            completions_chart=lambda: charts.columns_over_time(
                [(week.strftime("%d %b"), n) for week, n in data["weekly"]],
                title="Lessons completed per week",
            ),
            funnel_chart=lambda: charts.horizontal_bars(
                [
                    charts.Bar(
                        f"{r['number']}. {r['title']}",
                        r["completed"],
                        text=f"{r['completed']:,} · {r['stopped_here']:,} stopped",
                        part=r["stopped_here"],
                        href=lesson_url(r["id"]),
                    )
                    for r in lessons
                ],
                title="Learners who completed each lesson, in quest order, and who stopped there",
                legend=("completed the lesson", "stopped there"),
            ),
            reports_chart=lambda: charts.horizontal_bars(
                [
                    charts.Bar(
                        f"{r['number']}. {r['title']}", r["open_reports"], href=lesson_url(r["id"])
                    )
                    for r in lessons
                    if r["open_reports"]
                ],
                title="Open issue reports per lesson",
            ),
        )
        return TemplateResponse(request, "admin/insights/quest.html", context)

    @staticmethod
    def _exercise_rows(row: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {
                **exercise,
                "median": _duration(exercise["median_seconds"])
                if exercise["passed"] >= selectors.MIN_LEARNERS_FOR_MEDIAN
                else "too few yet",
                "first_time_share": _share(
                    exercise["passed_first_time"] / exercise["passed"]
                    if exercise["passed"]
                    else None
                ),
                "hardest_share": _share(
                    next(
                        (
                            c["wrong_share"]
                            for c in exercise["columns"]
                            if c["name"] == exercise["hardest_column"]
                        ),
                        None,
                    )
                ),
            }
            for exercise in row["exercises"]
        ]

    def lesson_view(self, request: HttpRequest, lesson_id: int) -> TemplateResponse:
        lesson = lesson_with_quest(lesson_id=lesson_id)
        if lesson is None:
            raise Http404("No such lesson.")
        context = self._context(request, f"How “{lesson.title}” is doing")
        data = selectors.lesson_analytics(lesson_id=lesson.pk, refresh="refresh" in request.GET)
        row = data["lesson"]
        if row is None:
            context.update(lesson=lesson, draft=True)
            return TemplateResponse(request, "admin/insights/lesson.html", context)
        quest_rows = data["quest"]["lessons"]
        previous = next((r for r in quest_rows if r["number"] == row["number"] - 1), None)
        exercises = []
        for exercise in self._exercise_rows(row):
            exercise["chart"] = charts.horizontal_bars(
                [
                    charts.Bar(
                        c["name"],
                        (c["wrong_share"] or 0) * 100,
                        text=f"{_share(c['wrong_share'])} wrong of {c['checked']:,} cells",
                        highlight=c["name"] == exercise["hardest_column"],
                    )
                    for c in exercise["columns"]
                ],
                title=f"Share of wrong cells per column: {exercise['title']}",
                maximum=100,
            )
            exercises.append(exercise)
        analytics_url = _url_for_ids("admin:insights_questanalytics_lesson")
        kinds, statuses = report_choice_labels()
        reports = [
            {**r, "kind": kinds.get(r["kind"], r["kind"]), "status": statuses.get(r["status"])}
            for r in data["reports"]
        ]
        checks = [
            {
                **check,
                "right": _share(check["right_share"]),
                "first_try": _share(check["first_try_share"]),
            }
            for check in data["checks"]
        ]
        context.update(
            lesson=lesson,
            reports=reports,
            checks=checks,
            data=data,
            row=row,
            previous=previous,
            kept_share=_share(row["completed"] / previous["completed"])
            if previous and previous["completed"]
            else None,
            exercises=exercises,
            quest_url=reverse("admin:insights_questanalytics_quest", args=[lesson.quest_id]),
            completions_chart=charts.columns_over_time(
                [(week.strftime("%d %b"), n) for week, n in data["weekly"]],
                title="Completions of this lesson per week",
            ),
            funnel_chart=charts.horizontal_bars(
                [
                    charts.Bar(
                        f"{r['number']}. {r['title']}",
                        r["completed"],
                        highlight=r["id"] == row["id"],
                        href=analytics_url(r["id"]),
                    )
                    for r in quest_rows
                    if abs(r["number"] - row["number"]) <= 3
                ],
                title="Learners who completed this lesson and its neighbours",
            ),
        )
        return TemplateResponse(request, "admin/insights/lesson.html", context)
