#!/usr/bin/env bash
# Property-based API testing with schemathesis against a live server, signed out and signed in.
#
#   scripts/schemathesis.sh            (MAX_EXAMPLES=25 per operation, port 18210)
#
# Starts the API (gunicorn, production settings, its own SQLite database in a temporary
# directory, tasks in-process) with the demo curriculum and a learner, then runs every
# schemathesis check over every operation of /api/schema/: once signed out, once with the
# learner's session token (X-Session-Token). Fails on any server error, any response that
# does not match the schema, any undocumented status code. Runs in a few minutes on 2 cores.
# One schemathesis worker: with two, Hypothesis's internal caches race (a KeyError in
# lambda_sources), which reports an error that is not the API's.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-.venv/bin/python}
PORT=${SCHEMATHESIS_PORT:-18210}
MAX_EXAMPLES=${MAX_EXAMPLES:-25}
SEED=${SCHEMATHESIS_SEED:-$RANDOM}
# shellcheck source=scripts/throwaway-server.sh
source scripts/throwaway-server.sh

export DATABASE_URL="sqlite:///$tmp/db.sqlite3"
unset REDIS_URL CACHE_URL BROKER_URL
export DEBUG=0 TESTING=0 ALLOWED_HOSTS=127.0.0.1 SECURE_SSL_REDIRECT=false \
    SESSION_COOKIE_SECURE=false SECURE_HSTS_SECONDS=0 LOG_LEVEL=WARNING \
    EMAIL_URL=dummymail:// PUBLIC_API_URL="http://127.0.0.1:$PORT" \
    THROTTLE_COMMENTS=600/min THROTTLE_SUBMISSIONS=600/min THROTTLE_SYNC=600/min \
    THROTTLE_REPORTS_ANON=600/hour THROTTLE_REPORTS_USER=600/hour
SECRET_KEY="schemathesis-$("$PY" -c 'import secrets; print(secrets.token_urlsafe(32))')"
export SECRET_KEY

"$PY" manage.py migrate --noinput --verbosity 0
"$PY" manage.py load_curriculum content/ >/dev/null
"$PY" manage.py shell -c '
from accounts.models import User
User.objects.create_user("fuzz@example.com", "Fuzz-passw0rd!", display_name="Fuzz")
' 

.venv/bin/gunicorn learning_platform.wsgi:application --config gunicorn.conf.py \
    --bind "127.0.0.1:$PORT" --workers 2 \
    --log-level warning >"$tmp/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 60); do
    if "$PY" - "$PORT" <<'PYEOF' 2>/dev/null; then break; fi
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1)
PYEOF
    sleep 0.5
done

token="$("$PY" - "$PORT" <<'PYEOF'
import json, sys, urllib.request
request = urllib.request.Request(
    f"http://127.0.0.1:{sys.argv[1]}/_allauth/app/v1/auth/login",
    data=json.dumps({"email": "fuzz@example.com", "password": "Fuzz-passw0rd!"}).encode(),
    headers={"Content-Type": "application/json"},
)
print(json.load(urllib.request.urlopen(request, timeout=10))["meta"]["session_token"])
PYEOF
)"

run() {
    local label="$1"
    shift
    echo "==== schemathesis: $label (max $MAX_EXAMPLES examples per operation, seed $SEED)"
    .venv/bin/schemathesis --config-file scripts/schemathesis.toml run \
        "http://127.0.0.1:$PORT/api/schema/" \
        --checks all --max-examples "$MAX_EXAMPLES" --seed "$SEED" --workers 1 \
        --request-timeout 20 --no-color --suppress-health-check all "$@"
}

rc=0
run "signed out" || rc=1
run "signed in" -H "X-Session-Token: $token" || rc=1
if grep -q "Internal Server Error\|Traceback" "$tmp/server.log"; then
    echo "server log shows errors:" >&2
    cat "$tmp/server.log" >&2
    rc=1
fi
exit $rc
