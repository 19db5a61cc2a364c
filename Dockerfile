# syntax=docker/dockerfile:1
# One image for every process of learning-platform: web (gunicorn, the default command, which
# also serves the learners' web app at /), Celery worker, Celery beat and the one-off migrate
# job; docker-compose.yml shows all four.

# The web app (web/: TypeScript, Vite, React) is built in a Node stage; only its output,
# web/dist, goes into the Python image.
FROM node:20-slim AS web
WORKDIR /web
# Dependencies first, from the committed lock, so source changes reuse this layer.
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY web/ ./
RUN npm run build

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

RUN groupadd --system app \
    && useradd --system --gid app --home-dir /app --no-create-home --shell /usr/sbin/nologin app

# Dependencies first, so code changes reuse this layer. Every package, with its hashes, is
# pinned in the lock, and psycopg's binary wheel carries libpq: no compiler, no apt packages.
COPY requirements/base.txt requirements/base.txt
RUN python -m pip install --require-hashes -r requirements/base.txt

# The code stays owned by root: the app user can read it, not change it.
COPY . .
# The built web app, served at / (WEB_DIST_DIR defaults to /app/web/dist); its files are
# pre-compressed so WhiteNoise sends gzip without compressing per request (what `make web`
# does after its build: scripts/web.sh compress; the Node stage has no Python).
COPY --from=web /web/dist web/dist
RUN python -m whitenoise.compress --quiet web/dist

# Hashed, compressed static files for whitenoise. Settings refuse to load without a
# SECRET_KEY when DEBUG is off; this throwaway one exists only during this build step.
RUN DEBUG=0 SECRET_KEY=collectstatic-build-only-not-a-secret \
    python manage.py collectstatic --noinput --verbosity 0

# Uploaded lesson images (MEDIA_ROOT): the one directory the app writes, owned by it so that
# a volume mounted there (docker-compose.yml) starts writable.
RUN mkdir -p /app/media && chown app:app /app/media

USER app

# gunicorn reads WEB_CONCURRENCY (worker processes; about 2 x cores + 1 per container) and
# FORWARDED_ALLOW_IPS (trust X-Forwarded-* from the load balancer in front of the container).
ENV PORT=8000 \
    WEB_CONCURRENCY=3 \
    FORWARDED_ALLOW_IPS="*"
EXPOSE 8000

# Liveness: the process answers. Readiness (/readyz: database and broker) is for the load
# balancer and compose's web healthcheck, so a database outage does not restart containers.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "scripts/healthcheck.py", "/healthz"]

CMD ["gunicorn", "learning_platform.wsgi:application", \
     "--config", "gunicorn.conf.py", \
     "--bind", "0.0.0.0:8000", \
     "--access-logfile", "-", \
     "--worker-tmp-dir", "/dev/shm", \
     "--timeout", "30", \
     "--graceful-timeout", "30", \
     "--keep-alive", "5", \
     "--max-requests", "1000", \
     "--max-requests-jitter", "100"]
