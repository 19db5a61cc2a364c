"""The code's shape as docs/architecture.md describes it (lint-imports checks the graph)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 500
# The project's own packages: the Django apps and the project package.
PACKAGES = sorted(
    path.parent.name for path in ROOT.glob("*/apps.py") if (path.parent / "__init__.py").exists()
)


def _source_files() -> list[Path]:
    files = [*ROOT.glob("*.py"), *ROOT.glob("bench/**/*.py"), *ROOT.glob("scripts/**/*.py")]
    for package in PACKAGES:
        files += ROOT.glob(f"{package}/**/*.py")
    return sorted(
        path
        for path in files
        if not {"tests", "migrations", ".venv", "node_modules"} & set(path.relative_to(ROOT).parts)
    )


def test_the_packages_are_found():
    assert {"learning_platform", "lessons", "progress", "achievements"} <= set(PACKAGES)


def test_no_source_file_is_over_500_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in _source_files()
        if (lines := len(path.read_text().splitlines())) > MAX_LINES
    }

    assert long == {}


def _function_level_imports_of_other_packages(path: Path) -> list[tuple[int, str]]:
    package = path.relative_to(ROOT).parts[0]
    tree = ast.parse(path.read_text())
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top in PACKAGES and top != package:
                    found.append((node.lineno, module))
    return found


def _explained(lines: list[str], index: int) -> bool:
    """A comment on the import's line, or just above the group of imports it belongs to."""
    if "#" in lines[index]:
        return True
    above = index - 1
    while above >= 0 and (
        not lines[above].strip() or lines[above].strip().startswith(("from ", "import "))
    ):
        above -= 1
    return above >= 0 and lines[above].strip().startswith("#")


def test_an_import_of_another_app_inside_a_function_says_why():
    unexplained = []
    for path in _source_files():
        if path.relative_to(ROOT).parts[0] not in PACKAGES:
            continue
        lines = path.read_text().splitlines()
        for lineno, module in _function_level_imports_of_other_packages(path):
            if not _explained(lines, lineno - 1):
                unexplained.append(f"{path.relative_to(ROOT)}:{lineno} imports {module}")

    assert unexplained == []


def test_the_kernel_names_no_app_model_or_key():
    # The apps register their models and keys with the kernel (learning_platform.versioned);
    # db.py's list of growing tables is the one exception left, owned elsewhere.
    apps = [package for package in PACKAGES if package != "learning_platform"]
    named = []
    for path in _source_files():
        parts = path.relative_to(ROOT).parts
        # settings*.py name the apps, as settings do (the schedule's tasks, the schema's enums).
        if parts[0] != "learning_platform" or parts[-1].startswith("settings"):
            continue
        if parts[-1] in ("urls.py", "db.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            value = node.value if isinstance(node, ast.Constant) else None
            if isinstance(value, str) and value.startswith(tuple(f"{app}." for app in apps)):
                named.append(f"{path.relative_to(ROOT)}:{node.lineno} {value!r}")

    assert named == []
