"""The one slug rule of the platform's content (quests, lessons, tags, exercises): lowercase
letters and digits in words joined by single hyphens. The models validate with it, the
curriculum files and exercise specs are checked against it before anything is written."""

from __future__ import annotations

from django.core.validators import RegexValidator

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"

slug_validator = RegexValidator(SLUG_PATTERN, "Use lowercase letters, digits and single hyphens.")
