#!/usr/bin/env bash
# Run one of the web app's npm scripts (web/package.json) with the Node.js node-env.sh picks,
# installing web/node_modules with `npm ci` first, but only when web/package-lock.json changed
# since the last successful install (a sha256 stamp in node_modules).
#
#   scripts/web.sh build | test | lint | typecheck | e2e [args...]
#   scripts/web.sh install          only the dependencies
#   WEB_DIR=/elsewhere/web scripts/web.sh build     another copy of the app
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
web="${WEB_DIR:-$root/web}"
node_env="$root/scripts/node-env.sh"
stamp="$web/node_modules/.package-lock.sha256"

if [ "$#" -eq 0 ]; then
    echo "usage: scripts/web.sh install | <npm script> [args...]" >&2
    exit 2
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
if [ "$#" -gt 0 ]; then
    exec "$node_env" npm run --silent "$script" -- "$@"
fi
exec "$node_env" npm run --silent "$script"
