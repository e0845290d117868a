#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; Playwright's own browser downloads are never used.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  echo "Chromium not found: installing Debian's package" >&2
  apt-get update
  apt-get install -y --no-install-recommends chromium
fi
chromium --version
