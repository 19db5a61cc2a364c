#!/usr/bin/env bash
# Django's deployment checklist (`manage.py check --deploy`) against production settings:
# DEBUG off plus the production values below, unless the environment already sets them.
# Any warning fails. To check a real configuration: `set -a; . ./.env; set +a; make check-deploy`.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PY:-.venv/bin/python}"

export DEBUG=0 TESTING=0
if [ -z "${SECRET_KEY:-}" ]; then
    SECRET_KEY="$("$python" -c 'import secrets; print(secrets.token_urlsafe(64))')"
    export SECRET_KEY
fi
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-api.example.com}"
export CSRF_TRUSTED_ORIGINS="${CSRF_TRUSTED_ORIGINS:-https://app.example.com}"
export CORS_ALLOWED_ORIGINS="${CORS_ALLOWED_ORIGINS:-https://app.example.com}"
export FRONTEND_URL="${FRONTEND_URL:-https://app.example.com}"
export PUBLIC_API_URL="${PUBLIC_API_URL:-https://api.example.com}"
export DEFAULT_FROM_EMAIL="${DEFAULT_FROM_EMAIL:-Learning Platform <noreply@example.com>}"
export EMAIL_URL="${EMAIL_URL:-smtp+tls://mailer:not-a-real-password@smtp.example.com:587}"

exec "$python" manage.py check --deploy --fail-level WARNING
