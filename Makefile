# Turno: `make run` serves the app on SQLite with demo data; `make test` runs every test.
SHELL := /bin/bash
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
PORT ?= 3000
export PATH := $(CURDIR)/.tools/node_modules/.bin:$(BIN):$(PATH)
export REFLEX_TELEMETRY_ENABLED := false
export TELEMETRY_ENABLED := false
export PYTHONPATH := $(CURDIR)

run-prod: install
	scripts/run_prod.sh

build-frontend: install
	reflex export --frontend-only --no-zip

# `make backup` writes backups/turno-<time>.sqlite3|.dump; `make restore FILE=...` puts one back (scripts/backup.py).
.PHONY: backup restore seed-large run run-prod build-frontend install install-dev migrate seed test lint unit e2e format clean bench

install:
	scripts/bootstrap.sh requirements.txt

install-dev:
	scripts/bootstrap.sh requirements-dev.txt
	scripts/ensure_browser.sh
	scripts/ensure_lighthouse.sh

migrate: install
	alembic upgrade head

seed: migrate
	python -m scripts.seed

seed-large: migrate
	python -m scripts.seed_large $(SEED_ARGS)

backup: install
	python -m scripts.backup create

restore: install
	@test -n "$(FILE)" || { echo 'usage: make restore FILE=backups/turno-....sqlite3|.dump'; exit 2; }
	python -m scripts.backup restore "$(FILE)"

run: seed
	reflex run --env prod --single-port --frontend-port $(PORT) --backend-port $(PORT)

lint: install-dev
	ruff check .
	ruff format --check .

unit: install-dev
	pytest tests/unit -q

e2e: install-dev
	pytest tests/e2e -q

test: install-dev
	ruff check .
	pytest tests/unit tests/e2e tests/security -q -p no:cacheprovider
	pytest tests/bench -q -p no:cacheprovider

format: install-dev
	ruff format .
	ruff check --fix .

bench: install-dev
	python -m bench

clean:
	rm -rf .web .states turno.db
