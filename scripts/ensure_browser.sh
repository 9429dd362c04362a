#!/usr/bin/env bash
# Make a Chromium available for the browser tests: Debian's package when possible,
# otherwise Playwright's own download (on machines that can reach it).
set -euo pipefail
cd "$(dirname "$0")/.."
for candidate in "${CHROMIUM_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "Chromium: $candidate"
    exit 0
  fi
done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium (about a minute)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation >/dev/null
  exit 0
fi
echo "No system Chromium found; falling back to Playwright's browser download"
.venv/bin/python -m playwright install chromium
