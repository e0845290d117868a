#!/usr/bin/env bash
# Builds the app and serves it as `npm start` does (lib/server/serve.ts: the API and Next.js in one
# server) on a fresh, empty data directory, as a user would run it. E2E_SKIP_BUILD=1 reuses an
# existing build while iterating on the specs.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/e2e-data.XXXXXX")"
export DATA_DIR
trap 'rm -rf "$DATA_DIR"' EXIT
if [ "${E2E_SKIP_BUILD:-0}" != "1" ]; then
  npx next build
fi
HOST=127.0.0.1 node --import tsx lib/server/serve.ts &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$DATA_DIR"' EXIT INT TERM
wait "$server"
