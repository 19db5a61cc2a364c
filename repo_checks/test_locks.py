"""The hashed locks install on every Python the README promises, not only on the locker's.

A lock compiled for one Python leaves out what only another needs: pip-compile on 3.11.7
dropped redis's async-timeout (needed below 3.11.3), and pip's hash mode then refused Debian
12's Python 3.11.2. `make lock` resolves them universally; CI installs them on each Python it
has (scripts/install_smoke.sh).
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ["requirements/base.txt", "requirements/observability.txt", "requirements/dev.txt"]


@pytest.mark.parametrize("lock", LOCKS)
def test_each_lock_was_resolved_for_every_supported_python(lock):
    header = (ROOT / lock).read_text().splitlines()[1]

    assert header.startswith("#    uv pip compile --universal --python-version 3.11 "), (
        f"{lock} was not made by `make lock` (uv pip compile --universal): {header}"
    )


@pytest.mark.parametrize("lock", LOCKS)
def test_redis_gets_async_timeout_below_python_3_11_3(lock):
    text = (ROOT / lock).read_text()

    assert re.search(r"^async-timeout==\S+ ; python_full_version < '3\.11\.3' \\$", text, re.M)


def test_make_lock_compiles_universally_from_the_lowest_supported_python():
    makefile = (ROOT / "Makefile").read_text()
    pyproject = (ROOT / "pyproject.toml").read_text()

    assert 'requires-python = ">=3.11,' in pyproject
    assert "uv pip compile --quiet --universal --python-version 3.11 --generate-hashes" in makefile
