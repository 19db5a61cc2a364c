"""The reference catalogue: model architectures, loaded from the shipped data."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from exercises.catalogue_seed import reference_rows
from exercises.models import ModelReference
from exercises.services.grading_cache import forget_catalogue


def load_reference_catalogue(*, rows: list[dict[str, Any]] | None = None) -> dict[str, int]:
    """Upsert the catalogue by name from the shipped data (or `rows`); never deletes.

    Returns {"created": n, "updated": n, "unchanged": n}.
    """
    counts = {"created": 0, "updated": 0, "unchanged": 0}
    with transaction.atomic():
        existing = {r.name: r for r in ModelReference.objects.select_for_update()}
        for row in rows if rows is not None else reference_rows():
            values = {k: v for k, v in row.items() if k != "name"}
            reference = existing.get(row["name"])
            if reference is None:
                ModelReference.objects.create(name=row["name"], **values)
                counts["created"] += 1
            elif any(getattr(reference, k) != v for k, v in values.items()):
                for k, v in values.items():
                    setattr(reference, k, v)
                reference.save()
                counts["updated"] += 1
            else:
                counts["unchanged"] += 1
    forget_catalogue()
    return counts
