#!/usr/bin/env bash
# Create the project's virtual environment and install bun from the npm registry into .tools/.
# Usage: scripts/bootstrap.sh REQUIREMENTS_FILE
set -euo pipefail
cd "$(dirname "$0")/.."
req="${1:-requirements.txt}"
PY="${PYTHON:-python3}"

if [ ! -x .venv/bin/python ]; then
  if ! "$PY" -m venv .venv 2>/dev/null; then
    rm -rf .venv
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
      echo "python3-venv is missing; installing it with apt-get"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
      "$PY" -m venv .venv
    else
      echo "Cannot create a virtual environment: install python3-venv (sudo apt-get install python3-venv)" >&2
      exit 1
    fi
  fi
  .venv/bin/pip install -q --upgrade pip
fi

stamp=".venv/.installed-$(basename "$req")"
if [ ! -f "$stamp" ] || [ "$req" -nt "$stamp" ] || [ requirements.txt -nt "$stamp" ]; then
  .venv/bin/pip install -q -r "$req"
  touch "$stamp"
fi

if [ ! -x .tools/node_modules/.bin/bun ]; then
  mkdir -p .tools
  npm install --silent --no-audit --no-fund --prefix .tools bun@1.4.4
fi
