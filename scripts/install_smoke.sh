#!/usr/bin/env bash
# The install as a new user meets it, on each Python given or found: a fresh virtualenv in a
# temporary directory, the production lock (requirements/base.txt) installed with
# --require-hashes, then a smoke test of what was installed: migrate a new SQLite database,
# load the curriculum and serve it with gunicorn on a free port, which must answer /healthz,
# /readyz, the lesson list and a lesson of the API.
#
#   scripts/install_smoke.sh [PYTHON...]
#
# Without arguments it takes Debian's /usr/bin/python3 (3.11.2 on Debian 12: below 3.11.3,
# where redis needs async-timeout) and every other Python 3.11 to 3.13 it finds (python3.1x on
# PATH, pyenv's versions), one of each version, oldest first, and says which minor versions it
# found none of. The locks are universal (`make lock`), so each of them must install.
#
#   SMOKE_LOCK=requirements/dev.txt   the lock to install (default requirements/base.txt)
#   SMOKE_CONTENT=DIR                 the curriculum to load (default content/)
set -euo pipefail
cd "$(dirname "$0")/.."
lock="${SMOKE_LOCK:-requirements/base.txt}"
content="${SMOKE_CONTENT:-content/}"
supported=(3.11 3.12 3.13)

# version PYTHON: its full version (3.11.2), or nothing when it does not run.
version() {
    "$1" -c 'import platform; print(platform.python_version())' 2>/dev/null || true
}

candidates=("$@")
given=$#
if [ "$given" -eq 0 ]; then
    # Interpreters before PATH's names, which may be pyenv's shims of the same versions.
    candidates=(/usr/bin/python3)
    for python in "${PYENV_ROOT:-${HOME:-}/.pyenv}"/versions/3.1[123].*/bin/python3; do
        if [ -x "$python" ]; then candidates+=("$python"); fi
    done
    for minor in "${supported[@]}"; do
        if command -v "python$minor" >/dev/null 2>&1; then
            candidates+=("$(command -v "python$minor")")
        fi
    done
fi

# One Python per full version, supported ones only, sorted by version.
declare -A by_version=()
for python in "${candidates[@]}"; do
    v="$(version "$python")"
    if [ -z "$v" ]; then
        # A pyenv shim of a version not installed answers with an error: not a Python here.
        if [ "$given" -gt 0 ]; then echo "install smoke: $python does not run; skipped"; fi
        continue
    fi
    case "$v" in
        3.11.* | 3.12.* | 3.13.*) ;;
        *)
            echo "install smoke: $python is Python $v, not 3.11 to 3.13; skipped"
            continue
            ;;
    esac
    if [ -z "${by_version[$v]:-}" ]; then by_version[$v]="$python"; fi
done
if [ "${#by_version[@]}" -eq 0 ]; then
    echo "install smoke: no Python 3.11 to 3.13 found" >&2
    exit 1
fi
mapfile -t versions < <(printf '%s\n' "${!by_version[@]}" | sort -V)
echo "install smoke: $lock on Python ${versions[*]}"
for minor in "${supported[@]}"; do
    if ! printf '%s\n' "${versions[@]}" | grep -q "^$minor\."; then
        echo "install smoke: no Python $minor among those found: not tested here"
    fi
done

# On tmpfs when there is room: a venv is 15,000 files, and removing one from a disk mounted
# with `discard` (as on CI's machines) took half a minute.
tmp_root="${TMPDIR:-/tmp}"
if [ -d /dev/shm ] && [ -w /dev/shm ] &&
    [ "$(df -Pk /dev/shm | awk 'NR == 2 {print $4}')" -gt 3000000 ]; then
    tmp_root=/dev/shm
fi
work="$(mktemp -d -p "$tmp_root" install-smoke.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# smoke PYTHON VERSION: install the lock into a fresh venv and try what it installed.
smoke() {
    local python="$1" v="$2" dir="$work/$2" t0 port server_pid
    mkdir -p "$dir"
    t0=$SECONDS
    "$python" -m venv "$dir/venv"
    # Machine-wide pip configs may name local package mirrors that do not exist; drop that noise.
    "$dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes \
        -r "$lock" 2>&1 | { grep -v "is ignored: it is neither a file nor a directory" || true; }
    "$dir/venv/bin/python" -m pip check --disable-pip-version-check
    echo "Python $v: $lock installed in $((SECONDS - t0))s ($python)"

    # The embedded default, as `make run` serves it, on a database and port of its own; the
    # CI's services (DATABASE_URL, REDIS_URL) are left out.
    local -a run=(env -u REDIS_URL -u BROKER_URL -u CACHE_URL -u LEADERBOARD_REDIS_URL
        DEBUG=1 DATABASE_URL="sqlite:///$dir/db.sqlite3" PROMETHEUS_MULTIPROC_DIR="$dir/metrics")
    mkdir -p "$dir/metrics"
    t0=$SECONDS
    "${run[@]}" "$dir/venv/bin/python" manage.py migrate --noinput --verbosity 0
    "${run[@]}" "$dir/venv/bin/python" manage.py load_curriculum "$content"
    port="$("$dir/venv/bin/python" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')"
    "${run[@]}" "$dir/venv/bin/gunicorn" learning_platform.wsgi:application \
        --bind "127.0.0.1:$port" --workers 1 --log-level warning >"$dir/gunicorn.log" 2>&1 &
    server_pid=$!
    # shellcheck disable=SC2064  # the pid is meant to be expanded now
    trap "kill $server_pid 2>/dev/null || true" EXIT
    if ! PORT="$port" "$dir/venv/bin/python" - <<'PY'; then
import json, os, time, urllib.request

base = f"http://127.0.0.1:{os.environ['PORT']}"


def get(path):
    with urllib.request.urlopen(base + path, timeout=10) as response:
        assert response.status == 200, f"{path}: HTTP {response.status}"
        return response.read()


for _ in range(150):  # gunicorn is up within a few seconds; 30 s at most
    try:
        get("/healthz")
        break
    except OSError:
        time.sleep(0.2)
else:
    get("/healthz")  # its error says why
print("/healthz: HTTP 200")
get("/readyz")
print("/readyz: HTTP 200")
lessons = json.loads(get("/api/v1/lessons/"))
assert lessons["count"] > 0 and lessons["results"], "the API lists no lesson"
slug = lessons["results"][0]["slug"]
lesson = json.loads(get(f"/api/v1/lessons/{slug}/"))
assert lesson["slug"] == slug and lesson["title"], lesson
print(f"/api/v1/lessons/: {lessons['count']} lessons; /api/v1/lessons/{slug}/: {lesson['title']!r}")
PY
        echo "Python $v: the server did not answer as expected; its log:" >&2
        cat "$dir/gunicorn.log" >&2
        return 1
    fi
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    echo "Python $v: migrate, load_curriculum and the requests took $((SECONDS - t0))s"
}

# Each Python in a background subshell, waited for: its first failing command ends that
# Python's run (inside `if` or `||`, bash would ignore `set -e`), and its trap stops its
# server. As many at once as there are cores (SMOKE_JOBS): each run is mostly one busy process.
# Their output is printed whole, in version order, as each is waited for.
jobs="${SMOKE_JOBS:-$(nproc)}"
failed=()
pids=()
finish() {
    local v="$1" pid="$2" rc=0
    wait "$pid" || rc=$?
    echo "---- Python $v (${by_version[$v]})"
    cat "$work/$v.log"
    if [ "$rc" -ne 0 ]; then
        failed+=("$v")
        echo "install smoke: Python $v FAILED (exit $rc)" >&2
    fi
}
for i in "${!versions[@]}"; do
    v="${versions[$i]}"
    if [ "$i" -ge "$jobs" ]; then finish "${versions[$((i - jobs))]}" "${pids[$((i - jobs))]}"; fi
    smoke "${by_version[$v]}" "$v" >"$work/$v.log" 2>&1 &
    pids+=($!)
done
for ((i = ${#versions[@]} - jobs; i < ${#versions[@]}; i++)); do
    if [ "$i" -ge 0 ]; then finish "${versions[$i]}" "${pids[$i]}"; fi
done
if [ "${#failed[@]}" -gt 0 ]; then
    echo "install smoke: failed on Python ${failed[*]}" >&2
    exit 1
fi
echo "install smoke: $lock installs and serves on Python ${versions[*]}"
