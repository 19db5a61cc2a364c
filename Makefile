# learning-platform: developer commands. Needs only python3 (3.11+) on PATH; everything
# else goes into .venv, installed from the hashed lock requirements/dev.txt.
#
#   make run      the whole API on http://127.0.0.1:8000 (SQLite, in-process tasks)
#   make test     the whole test suite (DATABASE_URL / REDIS_URL from the environment)
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
# pytest-xdist workers: "auto" is one per CPU core.
PYTEST_WORKERS ?= auto
PYTEST_ARGS ?=
SCHEMA_FILE ?= openapi.yaml
PIP_COMPILE := $(VENV)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links

.PHONY: help venv run test lint format schema lock worker beat check-deploy migrate clean

help:  ## list the commands
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'

venv:  ## create .venv and install requirements/dev.txt (only when the lock changed)
	@PYTHON=$(PYTHON) scripts/bootstrap.sh requirements/dev.txt

run: venv  ## migrate, load the demo curriculum, create a demo admin, serve on 127.0.0.1:8000
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py load_curriculum content/
	@echo
	@echo "learning-platform is starting on http://$(HOST):$(PORT)/"
	@echo "  API:     http://$(HOST):$(PORT)/api/v1/"
	@echo "  Docs:    http://$(HOST):$(PORT)/api/docs/"
	@echo "  Schema:  http://$(HOST):$(PORT)/api/schema/"
	@echo "  Auth:    http://$(HOST):$(PORT)/_allauth/  (headless allauth)"
	@echo "  Admin:   http://$(HOST):$(PORT)/admin/"
	@DEBUG=1 $(PY) scripts/ensure_demo_admin.py
	@echo
	DEBUG=1 exec $(PY) manage.py runserver $(HOST):$(PORT)

test: venv  ## run the whole test suite (pass DATABASE_URL / REDIS_URL for PostgreSQL / Redis)
	@echo "make test: database $${DATABASE_URL:-SQLite (embedded default)}, broker $${REDIS_URL:-none (in-process tasks)}" \
		| sed -E 's#(//[^:/@]*):[^@/]*@#\1:***@#g'
	@rc=0; $(PY) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS) || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests - that is a failure" >&2; fi; \
	exit $$rc

lint: venv  ## ruff lint and format check
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: venv  ## apply ruff fixes and formatting
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

schema: venv  ## write the OpenAPI schema to $(SCHEMA_FILE); any warning fails
	DEBUG=1 $(PY) manage.py spectacular --validate --fail-on-warn --file $(SCHEMA_FILE)
	@echo "schema written to $(SCHEMA_FILE)"

lock: venv  ## re-pin requirements/base.txt and dev.txt from pyproject.toml (with hashes)
	$(PIP_COMPILE) --output-file=requirements/base.txt pyproject.toml
	$(PIP_COMPILE) --extra=dev --constraint=requirements/base.txt \
		--output-file=requirements/dev.txt pyproject.toml

migrate: venv  ## apply migrations to the configured database
	$(PY) manage.py migrate --noinput

worker: venv  ## a Celery worker (needs REDIS_URL)
	@if [ -z "$${REDIS_URL:-}" ]; then echo "make worker: set REDIS_URL (e.g. redis://127.0.0.1:6379/0); without it tasks run in-process" >&2; exit 2; fi
	DEBUG=$${DEBUG:-1} exec $(VENV)/bin/celery -A learning_platform worker -l INFO

beat: venv  ## the Celery beat scheduler, exactly one per deployment (needs REDIS_URL)
	@if [ -z "$${REDIS_URL:-}" ]; then echo "make beat: set REDIS_URL (e.g. redis://127.0.0.1:6379/0)" >&2; exit 2; fi
	DEBUG=$${DEBUG:-1} exec $(VENV)/bin/celery -A learning_platform beat -l INFO \
		--schedule $(VENV)/celerybeat-schedule

check-deploy: venv  ## Django's deployment checklist with production settings; warnings fail
	PY=$(PY) scripts/check-deploy.sh

clean:  ## remove caches, collected static files and test databases (keeps .venv and db.sqlite3)
	rm -rf staticfiles .pytest_cache .ruff_cache .hypothesis test_db*.sqlite3*
	find . -path ./.venv -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
