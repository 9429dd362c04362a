#!/usr/bin/env bash
# Install Lighthouse (the page-load benchmark's measuring tool, bench/page_load.py) from the npm
# registry into .tools/lighthouse/, next to bun. Pinned to 12.x: Lighthouse 13 needs Node >= 22.19
# and these machines have Node 20. It drives the system Chromium (CHROME_PATH), downloads no browser.
# Usage: scripts/ensure_lighthouse.sh   (idempotent; `python -m bench.page_load` calls it when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
version="12.8.2"
prefix=".tools/lighthouse"
installed="$prefix/node_modules/lighthouse/package.json"
if [ -f "$installed" ] && grep -q "\"version\": \"$version\"" "$installed"; then
  exit 0
fi
mkdir -p "$prefix"
npm install --silent --no-audit --no-fund --save-exact --prefix "$prefix" "lighthouse@$version"
