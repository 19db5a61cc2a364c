import csv
from collections.abc import Iterator
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse

from learning_platform.admin_lists import ReadOnlyAdmin, ReadOnlyMixin
from reviews.models import ParameterFit, ReviewCard, ReviewLog

# The columns FSRS tools read (fsrs-rs, fsrs-optimizer, srs-benchmark): the card, the review's
# time in milliseconds since the epoch, its rating (1-4), the card's state when reviewed (0
# new, 1 learning, 2 review, 3 relearning) and its duration in milliseconds (0: not timed).
CSV_COLUMNS = ("card_id", "review_time", "review_rating", "review_state", "review_duration")


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_rows(logs: QuerySet[ReviewLog]) -> Iterator[str]:
    """The logs as CSV lines for FSRS tools, oldest first, read in chunks."""
    writer = csv.writer(_Echo())
    yield writer.writerow(CSV_COLUMNS)
    for card_id, at, rating, state, duration in (
        logs.order_by("reviewed_at", "id")
        .values_list("card_id", "reviewed_at", "rating", "state_before", "duration_ms")
        .iterator(chunk_size=5000)
    ):
        yield writer.writerow((card_id, round(at.timestamp() * 1000), rating, state, duration or 0))


@admin.register(ReviewCard)
class ReviewCardAdmin(ReadOnlyAdmin):
    list_display = ("user", "check_block_id", "quest", "state", "due", "reps", "lapses")
    list_select_related = ("user", "quest")
    list_filter = ("state",)
    ordering = ("-id",)


@admin.register(ReviewLog)
class ReviewLogAdmin(ReadOnlyAdmin):
    list_display = (
        "reviewed_at",
        "user",
        "card_id",
        "source",
        "rating",
        "state_before",
        "correct",
        "duration_ms",
        "xp_awarded",
    )
    list_select_related = ("user",)
    list_filter = ("quest", "source", "rating")
    ordering = ("-id",)
    actions = ("export_csv",)

    @admin.action(description="Export as CSV for FSRS tools (every selected review)")
    def export_csv(self, request: HttpRequest, queryset: QuerySet[ReviewLog]) -> Any:
        response = StreamingHttpResponse(csv_rows(queryset), content_type="text/csv")
        response["Content-Disposition"] = 'attachment; filename="review-logs.csv"'
        return response


@admin.register(ParameterFit)
# ModelAdmin is generic in django-stubs only: at run time it takes no type argument.
class ParameterFitAdmin(ReadOnlyMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """Each fit of a quest's FSRS parameters (reviews.fit_parameters, daily), with how it and
    the defaults predicted the held-out reviews: the latest adopted fit schedules the quest."""

    list_display = (
        "fitted_at",
        "quest",
        "reviews",
        "log_loss",
        "default_log_loss",
        "rmse",
        "default_rmse",
        "adopted",
        "seconds",
    )
    list_filter = ("adopted", "quest")
    list_select_related = ("quest",)
    ordering = ("-fitted_at",)
