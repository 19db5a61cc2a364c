#!/usr/bin/env bash
# Create .venv (if missing or broken) and install a hashed lock file into it, but only when
# the lock's content changed since the last successful install (a sha256 stamp in .venv).
#
#   scripts/bootstrap.sh [LOCK]        LOCK defaults to requirements/dev.txt
#   PYTHON=python3.12 scripts/bootstrap.sh
set -euo pipefail

cd "$(dirname "$0")/.."
lock="${1:-requirements/dev.txt}"
venv="${VENV:-.venv}"
python="${PYTHON:-python3}"
stamp="$venv/.lock-$(basename "$lock" .txt).sha256"

if ! command -v "$python" >/dev/null 2>&1; then
    echo "bootstrap: '$python' not found; install Python 3.11+ or set PYTHON=..." >&2
    exit 1
fi
if ! "$python" -c 'import sys; sys.exit(not ((3, 11) <= sys.version_info[:2] < (3, 14)))'; then
    echo "bootstrap: $("$python" --version 2>&1) found; this project needs Python 3.11 to 3.13" >&2
    exit 1
fi

# A venv whose interpreter vanished (moved checkout, removed Python) is rebuilt from scratch.
if [ -d "$venv" ] && ! "$venv/bin/python" -c '' >/dev/null 2>&1; then
    echo "bootstrap: $venv is broken; recreating it"
    rm -rf "$venv"
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "bootstrap: creating $venv with $("$python" --version 2>&1)"
    "$python" -m venv "$venv"
fi

want="$(sha256sum "$lock" | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    exit 0
fi

echo "bootstrap: installing $lock into $venv"
rm -f "$stamp"
# The locks are universal (`make lock`: uv pip compile --universal), so one file installs on every
# Python 3.11.0 to 3.13, with the fresh venv's own pip (23.0.1 on Debian 12's 3.11.2 and newer);
# CI installs them so on each Python it has (scripts/install_smoke.sh).
# Machine-wide pip configs may name local package mirrors that do not exist; drop that noise.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes -r "$lock" 2>&1 \
    | { grep -v "is ignored: it is neither a file nor a directory" || true; }
echo "$want" >"$stamp"
echo "bootstrap: $venv is up to date with $lock"
