#!/usr/bin/env bash
# Production mode: PostgreSQL + Redis + several backend workers behind one port.
#   DATABASE_URL=postgresql+psycopg://... REFLEX_REDIS_URL=redis://... make run-prod
# Steps: apply migrations, build the frontend once (static files, precompressed), then start only
# the backend workers, which also serve those files, on $PORT (scripts/serve.py).
# WORKERS sets GRANIAN_WORKERS; the default is one per core (measured on 2 cores: 2 workers served
# best, 5 were far worse, see docs/performance.md). Several workers need REFLEX_REDIS_URL.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${PORT:=3000}"
: "${WORKERS:=$(nproc)}"
if [[ -z "${DATABASE_URL:-}" ]]; then
  echo "run-prod needs DATABASE_URL (e.g. postgresql+psycopg://user:pass@host/db)" >&2
  exit 2
fi
if [[ "$WORKERS" -gt 1 && -z "${REFLEX_REDIS_URL:-}" ]]; then
  echo "Several workers need REFLEX_REDIS_URL: without Redis each worker keeps its own state and" >&2
  echo "realtime messages between users on different workers are lost. Set it, or WORKERS=1." >&2
  exit 2
fi
export APP_ENV="${APP_ENV:-production}"
export SITE_URL="${SITE_URL:-http://localhost:$PORT}"
# The compiled frontend opens its websocket at this origin (behind a proxy: the public origin).
export REFLEX_API_URL="${REFLEX_API_URL:-$SITE_URL}"
export GRANIAN_WORKERS="$WORKERS"
alembic upgrade head
reflex export --frontend-only --no-zip --loglevel warning
state="memory"
[[ -n "${REFLEX_REDIS_URL:-}" ]] && state="Redis"
echo "Turno: $SITE_URL ($WORKERS worker(s), state in $state)"
exec python -m scripts.serve --port "$PORT"
