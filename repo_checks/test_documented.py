"""Every environment variable the settings read is documented where an operator looks."""

import re
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[1]


def _variables_read_by_settings() -> set[str]:
    # settings.py and the modules it reads parts of the environment with (settings_api.py).
    source = "".join(
        path.read_text() for path in (BASE_DIR / "learning_platform").glob("settings*.py")
    )
    return set(re.findall(r"env(?:\.[a-z_]+)?\(\s*\"([A-Z][A-Z0-9_]*)\"", source))


def test_settings_read_the_variables_this_check_expects():
    names = _variables_read_by_settings()

    assert {"SECRET_KEY", "DEBUG", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"} <= names


@pytest.mark.parametrize("document", [".env.example", "docs/operations.md"])
def test_every_environment_variable_is_documented(document):
    text = (BASE_DIR / document).read_text()

    undocumented = sorted(
        name for name in _variables_read_by_settings() if not re.search(rf"\b{name}\b", text)
    )

    assert undocumented == [], f"document these in {document}: {undocumented}"
