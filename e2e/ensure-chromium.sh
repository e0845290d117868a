#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; Playwright's own browser downloads are never used.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  echo "Chromium not found: installing Debian's package" >&2
  bash "$(dirname "$0")/../lib/testing/apt-install.sh" --no-install-recommends chromium
fi
chromium --version
