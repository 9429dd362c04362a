#!/usr/bin/env bash
# Production mode: PostgreSQL + Redis + several backend workers behind one port.
#   DATABASE_URL=postgresql+psycopg://... REFLEX_REDIS_URL=redis://... make run-prod
# WORKERS (default 2: on 2 cores, 2 workers measured best; 5 was far worse) sets GRANIAN_WORKERS.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${PORT:=3000}"
: "${WORKERS:=2}"
if [[ -z "${DATABASE_URL:-}" ]]; then
  echo "run-prod needs DATABASE_URL (e.g. postgresql+psycopg://user:pass@host/db)" >&2
  exit 2
fi
if [[ "$WORKERS" -gt 1 && -z "${REFLEX_REDIS_URL:-}" ]]; then
  echo "Several workers need REFLEX_REDIS_URL: without Redis each worker keeps its own state and" >&2
  echo "realtime messages between users on different workers are lost." >&2
  exit 2
fi
export APP_ENV="${APP_ENV:-production}"
export SITE_URL="${SITE_URL:-http://localhost:$PORT}"
export GRANIAN_WORKERS="$WORKERS"
alembic upgrade head
exec reflex run --env prod --single-port --frontend-port "$PORT" --backend-port "$PORT"
