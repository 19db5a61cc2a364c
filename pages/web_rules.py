"""The rules the web app states to learners (goal choices, the streak freeze rule, length and
batch limits), read from the apps that enforce them and written to `web/src/lib/rules.json` by
`manage.py export_web_rules` (also run by `scripts/web.sh build | types`). The app imports that
file instead of copying the numbers, and `pages/tests/test_web_rules.py` fails when it is not
what this module gives: a rule changed on the server changes what the app says in the same
commit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings

from accounts.models import User
from community import selectors as community
from exercises.services import checks as exercise_checks
from progress import selectors as progress
from progress import streaks, sync_events
from reviews import services as reviews

RULES_FILE: Path = Path(settings.BASE_DIR) / "web" / "src" / "lib" / "rules.json"


def web_rules() -> dict[str, Any]:
    return {
        "daily_goals": list(progress.DAILY_GOALS),
        "streak": {"freeze_every": streaks.FREEZE_EVERY, "max_freezes": streaks.MAX_FREEZES},
        "comment_max_length": community.COMMENT_MAX_LENGTH,
        "report_message_max_length": community.REPORT_MESSAGE_MAX_LENGTH,
        "display_name_max_length": User._meta.get_field("display_name").max_length,
        "sync_batch": {
            "progress_events": sync_events.MAX_SYNC_EVENTS,
            "check_answers": exercise_checks.MAX_SYNCED_ANSWERS,
            "reviews": reviews.MAX_SYNCED_REVIEWS,
        },
    }


def rendered() -> str:
    return json.dumps(web_rules(), indent=2) + "\n"
