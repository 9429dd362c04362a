# Turno: `make run` serves the app on SQLite with demo data; `make test` runs every test.
SHELL := /bin/bash
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
PORT ?= 3000
# Rounds of 32 racing attempts per contested write in `make test`; `make security-full` runs 1,000.
CI_CONCURRENCY_ROUNDS ?= 200
# SIGKILL trials of the SQLite backend in `make test` (about 2 s each); `make security-full` runs 100.
CI_DURABILITY_TRIALS ?= 20
# Hypothesis examples per form in `make unit` (the inner loop); `make test` runs 200.
UNIT_FUZZ_EXAMPLES ?= 25
export PATH := $(CURDIR)/.tools/node_modules/.bin:$(BIN):$(PATH)
export REFLEX_TELEMETRY_ENABLED := false
export TELEMETRY_ENABLED := false
export PYTHONPATH := $(CURDIR)

run-prod: install
	scripts/run_prod.sh

build-frontend: install
	reflex export --frontend-only --no-zip

# `make backup` writes backups/turno-<time>.sqlite3|.dump; `make restore FILE=...` puts one back (scripts/backup.py).
.PHONY: backup restore seed-large run run-prod build-frontend install install-py-dev install-dev migrate seed test lint unit e2e format clean bench

install:
	scripts/bootstrap.sh requirements.txt

# Python test and lint tools only: the inner loop (`make unit`, `make lint`) needs no browser.
install-py-dev:
	scripts/bootstrap.sh requirements-dev.txt

install-dev: install-py-dev
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
	PORT=$(PORT) reflex run --env prod --single-port --frontend-port $(PORT) --backend-port $(PORT)

lint: install-py-dev
	ruff check .
	ruff format --check .

# The inner loop: every unit test on every core, the form fuzzer at UNIT_FUZZ_EXAMPLES per form
# (`make test` runs the full FUZZ_EXAMPLES default, 200).
unit: install-py-dev
	FUZZ_EXAMPLES=$(UNIT_FUZZ_EXAMPLES) pytest tests/unit -q -p no:cacheprovider -n auto

e2e: install-dev
	pytest tests/e2e -q

test: install-dev
	ruff check .
	# Unit tests on every core (each worker has its own databases); browser tests in one process.
	pytest tests/unit -q -p no:cacheprovider -n auto
	pytest tests/e2e -q -p no:cacheprovider
	# Its own process: Playwright's sync API keeps an event loop running until its session ends.
	CONCURRENCY_ROUNDS=$(CI_CONCURRENCY_ROUNDS) DURABILITY_TRIALS=$(CI_DURABILITY_TRIALS) pytest tests/security -q -p no:cacheprovider
	pytest tests/bench -q -p no:cacheprovider

format: install-py-dev
	ruff format .
	ruff check --fix .

# The full fault and race runs recorded in docs/security.md (about an hour on 2 cores), and the
# time promises (tests/support/timing.py): a message within a second, known and unknown e-mails answered alike.
security-full: install-dev
	STRICT_TIMING=1 CONCURRENCY_ROUNDS=1000 DURABILITY_TRIALS=100 DURABILITY_PG_TRIALS=100 pytest tests/security -q -s -p no:cacheprovider
	STRICT_TIMING=1 pytest tests/e2e/test_chat_live.py tests/e2e/test_realtime_workers.py -q -p no:cacheprovider

bench: install-dev
	python -m bench

clean:
	rm -rf .web .states turno.db
