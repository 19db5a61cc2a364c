#!/usr/bin/env bash
# Run one of the web app's npm scripts (web/package.json) with the Node.js node-env.sh picks,
# installing web/node_modules with `npm ci` first, but only when web/package-lock.json changed
# since the last successful install (a sha256 stamp in node_modules).
#
#   scripts/web.sh build | test | lint | typecheck | e2e [args...]
#   scripts/web.sh install          only the dependencies
#   scripts/web.sh types            regenerate src/lib/api-schema.d.ts from the API's OpenAPI
#                                   schema and src/lib/allauth-schema.d.ts from allauth's
#                                   (openapi-typescript); `build` does it first
#   scripts/web.sh types-check      fail when either committed file differs from its schema
#   scripts/web.sh compress         write web/dist's compressed copies; `build` does it last
#   WEB_DIR=/elsewhere/web scripts/web.sh build     another copy of the app
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
web="${WEB_DIR:-$root/web}"
node_env="$root/scripts/node-env.sh"
stamp="$web/node_modules/.package-lock.sha256"

if [ "$#" -eq 0 ]; then
    echo "usage: scripts/web.sh install | compress | <npm script> [args...]" >&2
    exit 2
fi

# A gzip copy beside each file of the build that compresses well (whitenoise.compress), which
# WhiteNoise sends to a browser that accepts it: every way of deploying (make web, the image)
# serves the app compressed, and no request pays for compressing it.
compress() {
    "${PY:-$root/.venv/bin/python}" -m whitenoise.compress --quiet "$web/dist"
}
if [ "$1" = "compress" ]; then
    compress
    exit 0
fi
if [ ! -f "$web/package-lock.json" ]; then
    echo "web: $web/package-lock.json is missing" >&2
    exit 1
fi

want="$(sha256sum "$web/package-lock.json" | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    "$node_env"
    echo "web: installing web/node_modules (npm ci)"
    (cd "$web" && "$node_env" npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$stamp"
fi

script="$1"
shift
if [ "$script" = "install" ]; then
    exit 0
fi
cd "$web"

# The API types come from the schema Django generates (the same command as `make schema`).
if [ "$script" = "build" ] || [ "$script" = "types" ] || [ "$script" = "types-check" ]; then
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    (cd "$root" && DEBUG=1 "${PY:-$root/.venv/bin/python}" manage.py spectacular --file "$tmp/openapi.yaml")
    # The rules the app states (goal choices, the streak freeze rule, limits): src/lib/rules.json.
    rules_check=()
    if [ "$script" = "types-check" ]; then rules_check=(--check); fi
    (cd "$root" && DEBUG=1 "${PY:-$root/.venv/bin/python}" manage.py export_web_rules "${rules_check[@]}")
    # allauth's headless API has its own spec, the one it serves at /_allauth/openapi.json (it
    # depends on the settings: clients, sign-up fields, phone), asked of Django's test client.
    (cd "$root" && SPEC_FILE="$tmp/allauth.json" DEBUG=1 "${PY:-$root/.venv/bin/python}" manage.py shell --no-imports -c '
import os
from django.test import Client
from django.test.utils import setup_test_environment
from django.urls import reverse
setup_test_environment()
answer = Client().get(reverse("headless:openapi_json"))
assert answer.status_code == 200, answer.status_code
with open(os.environ["SPEC_FILE"], "wb") as spec:
    spec.write(answer.content)
' >/dev/null)
    for pair in "$tmp/openapi.yaml:src/lib/api-schema.d.ts" "$tmp/allauth.json:src/lib/allauth-schema.d.ts"; do
        generate=("$node_env" npx --no-install openapi-typescript "${pair%%:*}" -o "${pair#*:}")
        if [ "$script" = "types-check" ]; then
            "${generate[@]}" --check || {
                echo "web: ${pair#*:} is out of date with its OpenAPI schema; run scripts/web.sh types" >&2
                exit 1
            }
        else
            "${generate[@]}"
        fi
    done
    if [ "$script" = "types-check" ]; then
        exit 0
    fi
    if [ "$script" = "types" ]; then
        exit 0
    fi
fi
if [ "$script" = "build" ]; then
    "$node_env" npm run --silent build ${1+-- "$@"}
    compress
    exit 0
fi
if [ "$#" -gt 0 ]; then
    exec "$node_env" npm run --silent "$script" -- "$@"
fi
exec "$node_env" npm run --silent "$script"
