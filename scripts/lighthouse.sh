#!/usr/bin/env bash
# Lighthouse on the first visit of a signed-out learner, against the production server: the
# reference lesson and its quest outline, 3 runs each, medians printed as a table against the
# thresholds of issue 26; exits non-zero when a median misses one.
#
#   make web && scripts/lighthouse.sh       (or `make lighthouse`; builds nothing itself)
#
# Serves the existing web/dist the way the image does (a copy pre-compressed with
# whitenoise.compress, gunicorn with gunicorn.conf.py, DEBUG off, collectstatic) on its own
# SQLite database in a temporary directory with the demo curriculum, tasks in-process, no
# Redis. Only what a plain-HTTP 127.0.0.1 origin needs is relaxed, by environment: the host,
# the HTTPS redirect, secure cookies and HSTS. Lighthouse is web/package.json's (12.2.3; newer
# majors need Node 22), Chromium is CHROME_PATH (default Debian's /usr/bin/chromium).
#
#   LIGHTHOUSE_PORT (18230)  LIGHTHOUSE_RUNS (3)  LIGHTHOUSE_PAGES ("/lessons/embedding-dimension /quests/transformers")
#   LIGHTHOUSE_OUT (web/lighthouse-reports, or $CI_ARTIFACTS_DIR/lighthouse): the JSON reports
#   LIGHTHOUSE_DIST (web/dist): another build to measure, e.g. an older commit's for a comparison
#   LIGHTHOUSE_REPORT_ONLY (unset): 1 prints the verdict without failing on a missed threshold
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-.venv/bin/python}
PORT=${LIGHTHOUSE_PORT:-18230}
RUNS=${LIGHTHOUSE_RUNS:-3}
PAGES=${LIGHTHOUSE_PAGES:-/lessons/embedding-dimension /quests/transformers}
if [ -n "${CI_ARTIFACTS_DIR:-}" ]; then default_out="$CI_ARTIFACTS_DIR/lighthouse"; else default_out=web/lighthouse-reports; fi
OUT="$(mkdir -p "${LIGHTHOUSE_OUT:-$default_out}" && cd "${LIGHTHOUSE_OUT:-$default_out}" && pwd)"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"

DIST=${LIGHTHOUSE_DIST:-web/dist}
if [ ! -f "$DIST/index.html" ]; then
    echo "lighthouse: $DIST is not built; run 'make web' first" >&2
    exit 2
fi
if [ ! -f web/node_modules/lighthouse/package.json ]; then
    echo "lighthouse: web/node_modules has no lighthouse; run 'scripts/web.sh install'" >&2
    exit 2
fi
if [ ! -x "$CHROME_PATH" ]; then
    echo "lighthouse: no Chromium at $CHROME_PATH; install Debian's package: apt-get install chromium" >&2
    exit 2
fi

# shellcheck source=scripts/throwaway-server.sh
source scripts/throwaway-server.sh

# The image's web/dist: the build, each file beside its .gz (and .br) for WhiteNoise.
cp -r "$DIST" "$tmp/dist"
"$PY" -m whitenoise.compress --quiet "$tmp/dist"

export WEB_DIST_DIR="$tmp/dist" DATABASE_URL="sqlite:///$tmp/db.sqlite3"
unset REDIS_URL CACHE_URL BROKER_URL
export DEBUG=0 TESTING=0 ALLOWED_HOSTS=127.0.0.1 SECURE_SSL_REDIRECT=false \
    SESSION_COOKIE_SECURE=false SECURE_HSTS_SECONDS=0 LOG_LEVEL=WARNING \
    EMAIL_URL=dummymail:// PUBLIC_API_URL="http://127.0.0.1:$PORT" FRONTEND_URL="http://127.0.0.1:$PORT"
SECRET_KEY="lighthouse-$("$PY" -c 'import secrets; print(secrets.token_urlsafe(32))')"
export SECRET_KEY

"$PY" manage.py migrate --noinput --verbosity 0
"$PY" manage.py load_curriculum content/ >/dev/null
"$PY" manage.py collectstatic --noinput --verbosity 0

.venv/bin/gunicorn learning_platform.wsgi:application --config gunicorn.conf.py \
    --bind "127.0.0.1:$PORT" --workers 2 --log-level warning >"$tmp/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 60); do
    if PORT=$PORT "$PY" scripts/healthcheck.py /healthz >/dev/null 2>&1; then break; fi
    sleep 0.5
done
PORT=$PORT "$PY" scripts/healthcheck.py /healthz >/dev/null || { cat "$tmp/server.log"; exit 1; }

rc=0
# shellcheck disable=SC2086  # PAGES is a list of paths
scripts/node-env.sh node web/scripts/lighthouse.mjs --base "http://127.0.0.1:$PORT" --runs "$RUNS" \
    --out "$OUT" $PAGES || rc=$?
if grep -q "Internal Server Error\|Traceback" "$tmp/server.log"; then
    echo "server log shows errors:" >&2
    cat "$tmp/server.log" >&2
    rc=1
fi
exit $rc
