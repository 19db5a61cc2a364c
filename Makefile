# learning-platform: developer commands. Needs only python3 (3.11+) on PATH; everything
# else goes into .venv, installed from the hashed lock requirements/dev.txt (Node.js too,
# when the machine has no Node.js 20+: scripts/node-env.sh picks one).
#
#   make run      the web app and the API on http://127.0.0.1:8000 (SQLite, in-process tasks)
#   make test     the Python suite and, alongside, the web app's unit tests; the Python suite on
#                 PostgreSQL and Redis when they answer, else SQLite without Redis
#                 (scripts/test_env.py says which)
#
# Settings come from the environment (see .env.example and docs/operations.md).

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers: "auto" is one per CPU core (pyproject.toml sets --dist worksteal).
PYTEST_WORKERS ?= auto
PYTEST_ARGS ?=
SCHEMA_FILE ?= openapi.yaml
# The locks are universal: resolved for every Python that pyproject.toml allows (3.11.0 to 3.13)
# and every platform at once, with markers where a package is needed only on some (e.g.
# async-timeout below 3.11.3), not for the Python that happens to run `make lock`. Versions
# already in a lock are kept unless pyproject.toml forces a change.
UV_COMPILE := $(VENV)/bin/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes

.PHONY: help venv web run test e2e lighthouse web-lint web-types-check lint typecheck format schema lock worker \
	beat check-deploy migrate clean

help:  ## list the commands
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

venv:  ## create .venv and install requirements/dev.txt (only when the lock changed)
	@PYTHON=$(PYTHON) scripts/bootstrap.sh requirements/dev.txt

web: venv  ## regenerate the web app's API types from the schema, build it into web/dist (npm ci first when web/package-lock.json changed)
	@scripts/web.sh build

run: venv web  ## build the web app, migrate, load the demo curriculum, serve on $(HOST):$(PORT) (e-mail links too)
	@HOST=$(HOST) PORT=$(PORT) PY=$(PY) scripts/run.sh

test: venv  ## the Python suite and the web app's unit tests, on PostgreSQL + Redis when they answer
	@exports="$$($(PY) scripts/test_env.py)"; eval "$$exports"; \
	web_log="$$(mktemp)"; trap 'rm -f "$$web_log"' EXIT; \
	echo "make test: the web app's unit tests (Vitest) run alongside; their output follows pytest's"; \
	scripts/web.sh test >"$$web_log" 2>&1 & web_pid=$$!; \
	rc=0; $(PY) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS) || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests - that is a failure" >&2; fi; \
	web_rc=0; wait $$web_pid || web_rc=$$?; \
	echo "make test: the web app's unit tests (Vitest, web/)"; cat "$$web_log"; \
	if [ $$rc -ne 0 ]; then echo "make test: the Python suite FAILED (exit $$rc)" >&2; fi; \
	if [ $$web_rc -ne 0 ]; then echo "make test: the web app's unit tests FAILED (exit $$web_rc)" >&2; fi; \
	if [ $$rc -ne 0 ]; then exit $$rc; fi; \
	exit $$web_rc

e2e: venv  ## browser tests (Playwright, Debian's chromium) on a real server + Celery worker; needs DATABASE_URL (PostgreSQL), REDIS_URL
	@if [ -z "$${DATABASE_URL:-}" ] || [ -z "$${REDIS_URL:-}" ]; then \
		echo "make e2e: set DATABASE_URL (PostgreSQL) and REDIS_URL, e.g." >&2; \
		echo "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/learning_platform_e2e REDIS_URL=redis://127.0.0.1:6379/2 make e2e" >&2; \
		exit 2; fi
	@if [ ! -x "$${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then \
		echo "make e2e: no Chromium at $${CHROMIUM_PATH:-/usr/bin/chromium}; install Debian's package: apt-get install chromium" >&2; \
		exit 2; fi
	scripts/web.sh e2e

lighthouse: venv web  ## Lighthouse (mobile) on the lesson and quest outline, production server, median of 3 vs the thresholds
	@scripts/lighthouse.sh

web-lint: venv  ## lint (ESLint) and type-check (tsc --noEmit) the web app
	@rc=0; scripts/web.sh lint || rc=$$?; scripts/web.sh typecheck || rc=$$?; exit $$rc

web-types-check: venv  ## fail when web/src/lib/api-schema.d.ts or allauth-schema.d.ts differs from its OpenAPI schema
	@scripts/web.sh types-check

lint: venv  ## ruff lint and format check, the apps' import graph (lint-imports), the repository's checks
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -q -n 0 repo_checks

typecheck: venv  ## mypy with the Django and DRF plugins (settings in pyproject.toml)
	DEBUG=1 $(VENV)/bin/mypy

format: venv  ## apply ruff fixes and formatting
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

schema: venv  ## write the OpenAPI schema to $(SCHEMA_FILE); any warning fails
	DEBUG=1 $(PY) manage.py spectacular --validate --fail-on-warn --file $(SCHEMA_FILE)
	@echo "schema written to $(SCHEMA_FILE)"

lock: venv  ## re-pin requirements/base.txt, observability.txt and dev.txt from pyproject.toml (universal, with hashes)
	$(UV_COMPILE) --output-file=requirements/base.txt pyproject.toml
	$(UV_COMPILE) --extra=observability --constraint=requirements/base.txt \
		--output-file=requirements/observability.txt pyproject.toml
	$(UV_COMPILE) --extra=dev --extra=observability --constraint=requirements/observability.txt \
		--output-file=requirements/dev.txt pyproject.toml

migrate: venv  ## apply migrations to the configured database
	$(PY) manage.py migrate --noinput

worker: venv  ## a Celery worker (needs REDIS_URL, or BROKER_URL for RabbitMQ)
	@if [ -z "$${REDIS_URL:-}$${BROKER_URL:-}" ]; then echo "make worker: set REDIS_URL (e.g. redis://127.0.0.1:6379/0) or BROKER_URL; without them tasks run in-process" >&2; exit 2; fi
	DEBUG=$${DEBUG:-1} exec $(VENV)/bin/celery -A learning_platform worker -l INFO

beat: venv  ## the Celery beat scheduler, exactly one per deployment (needs REDIS_URL or BROKER_URL)
	@if [ -z "$${REDIS_URL:-}$${BROKER_URL:-}" ]; then echo "make beat: set REDIS_URL (e.g. redis://127.0.0.1:6379/0) or BROKER_URL" >&2; exit 2; fi
	DEBUG=$${DEBUG:-1} exec $(VENV)/bin/celery -A learning_platform beat -l INFO \
		--schedule $(VENV)/celerybeat-schedule

check-deploy: venv  ## Django's deployment checklist with production settings; warnings fail
	PY=$(PY) scripts/check-deploy.sh

clean:  ## remove caches, collected static files, test databases, the web app's build (keeps .venv, db.sqlite3, web/node_modules)
	rm -rf staticfiles .pytest_cache .ruff_cache .hypothesis test_db*.sqlite3* \
		web/dist web/test-results web/e2e-artifacts web/playwright-report
	find . -path ./.venv -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
