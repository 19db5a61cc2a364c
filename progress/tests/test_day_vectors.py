"""The learner's day rule and the app's signed-out one agree: both answer the shared vectors in
web/src/lib/day-vectors.json (the app's side: web/src/lib/day.test.ts)."""

import json
import zoneinfo
from datetime import date, datetime
from pathlib import Path

import pytest
from django.conf import settings

from progress.streaks import day_of_activity

VECTORS = json.loads(
    (Path(settings.BASE_DIR) / "web" / "src" / "lib" / "day-vectors.json").read_text()
)["vectors"]


def _instant(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_the_day_rule_answers_the_shared_vectors(vector):
    day, start = day_of_activity(
        datetime.fromisoformat(vector["at"]),
        zone=zoneinfo.ZoneInfo(vector["zone"]),
        last=date.fromisoformat(vector["last"]) if vector["last"] else None,
        last_start=_instant(vector["last_start"]),
    )

    assert (day, start) == (date.fromisoformat(vector["day"]), _instant(vector["start"]))
