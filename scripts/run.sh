#!/usr/bin/env bash
# What `make run` does once .venv and the web app's build are in place: migrate, load the demo
# curriculum, print where everything is and serve on HOST:PORT (default 127.0.0.1:8000), the
# embedded default unless the environment says otherwise.
#
# E-mail links are built from the address served on: FRONTEND_URL and PUBLIC_API_URL default
# to http://HOST:PORT (a HOST of 0.0.0.0 listens everywhere; links then say 127.0.0.1), so a
# reset or reply e-mail opens the app on the port it runs on. Set them to override.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PY:-.venv/bin/python}"
host="${HOST:-127.0.0.1}"
port="${PORT:-8000}"
link_host="$host"
if [ "$host" = "0.0.0.0" ]; then link_host="127.0.0.1"; fi
origin="http://$link_host:$port"

export DEBUG="${DEBUG:-1}"
export FRONTEND_URL="${FRONTEND_URL:-$origin}"
export PUBLIC_API_URL="${PUBLIC_API_URL:-$origin}"

"$python" manage.py migrate --noinput
"$python" manage.py load_curriculum content/
echo
echo "learning-platform is starting on $origin/"
echo "  App:     $origin/  (a lesson: $origin/lessons/embedding-dimension)"
echo "  API:     $origin/api/v1/"
echo "  Docs:    $origin/api/docs/  (Redoc: /api/redoc/, schema: /api/schema/)"
echo "  Auth:    $origin/_allauth/  (headless allauth; spec: /_allauth/openapi.html)"
echo "  Admin:   $origin/admin/"
echo "  E-mail links: $FRONTEND_URL/ (app), $PUBLIC_API_URL/ (unsubscribe)"
"$python" scripts/ensure_demo_admin.py
echo
exec "$python" manage.py runserver "$host:$port"
