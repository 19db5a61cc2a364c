"""Admin change lists over tables that grow with the learners (users, the XP ledger, completions,
submissions, comments): no exact COUNT(*) over millions of rows.

Django's change list counts its rows twice on every page: the filtered count for the
paginator, and the unfiltered one for "N total" (`show_full_result_count`). On PostgreSQL a
COUNT(*) reads the whole table: 3 million ledger rows took most of a second. Here the first
is a count that stops at `COUNT_CAP` rows (an index walk of at most that many), replaced by
the planner's estimate (`pg_class.reltuples`, kept by ANALYZE and autovacuum) when the list is
unfiltered and larger; the second is not made.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.paginator import Paginator
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest
from django.utils.functional import cached_property

from learning_platform.db import estimated_row_count

COUNT_CAP = 10_000


# Paginator and ModelAdmin are generic in django-stubs only: at run time they take no type
# argument.
class EstimatedCountPaginator(Paginator):  # type: ignore[type-arg]
    @cached_property
    def count(self) -> int:
        queryset = self.object_list
        assert isinstance(queryset, QuerySet)  # the admin pages querysets
        capped = queryset.order_by()[: COUNT_CAP + 1].count()
        if capped <= COUNT_CAP or queryset.query.where:
            return capped
        return max(capped, estimated_row_count(queryset.model, using=queryset.db))


class LargeTableAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # as EstimatedCountPaginator
    """A change list whose count stays cheap however large the table grows."""

    paginator = EstimatedCountPaginator
    show_full_result_count = False


class LearnerSearchAdmin(LargeTableAdmin):
    """A change list searched by learner (part of an e-mail or name): the matching learners are
    found first, in the users table, then this table's rows through its index on
    `learner_field`.

    Django's own search ORs LIKE conditions across the join, which no index serves: searching
    3 million ledger rows for one learner's e-mail took seconds. `extra_search_conditions` adds
    matches on columns an index serves (a source id, a lesson).
    """

    learner_field = "user"
    search_fields = ("user__email", "user__display_name")  # what the box searches
    search_help_text = "Part of a learner's e-mail address or name."
    MAX_LEARNERS = 1000

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        from django.contrib.auth import get_user_model

        term = search_term.strip()
        if not term:
            return queryset, False
        # A list, not a subquery: ORed with other conditions, a subquery would be tested
        # against every row instead of driving an index scan.
        learner_ids = list(
            get_user_model()
            .objects.filter(Q(email__icontains=term) | Q(display_name__icontains=term))
            .values_list("id", flat=True)[: self.MAX_LEARNERS]
        )
        condition = Q(**{f"{self.learner_field}_id__in": learner_ids})
        extra = self.extra_search_conditions(term)
        return queryset.filter(condition | extra if extra is not None else condition), False

    def extra_search_conditions(self, term: str) -> Q | None:
        """Further matches for the search term, on columns an index serves."""
        return None


class ReadOnlyMixin:
    """Rows only the owning app's services write: nothing is added, changed or deleted by
    hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnlyMixin, LearnerSearchAdmin):
    """A learner-searched, read-only list (the XP ledger, completions)."""
