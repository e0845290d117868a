#!/usr/bin/env bash
# The browser suite (npm run test:e2e; arguments go to playwright test) on ports no other run holds.
# E2E_APP_PORT and E2E_SIM_PORT are kept when set. Otherwise a pair is drawn at random from
# 20000..29999, below Linux's ephemeral ports, and skipped while either is listening: two suites on
# one machine (two clones' CI runs) met on fixed ports, and the second failed at its servers' start.
# A pair still being built (the app listens only after `next build`) is not seen as taken, hence the
# random draw rather than the first free pair.
set -euo pipefail
cd "$(dirname "$0")/.."
bash e2e/ensure-chromium.sh

. lib/testing/listening.sh
if [ -z "${E2E_APP_PORT:-}" ] && [ -z "${E2E_SIM_PORT:-}" ]; then
  for _ in $(seq 50); do
    app=$((20000 + RANDOM % 5000 * 2))
    if ! listening "$app" && ! listening $((app + 1)); then
      export E2E_APP_PORT=$app E2E_SIM_PORT=$((app + 1))
      break
    fi
  done
  [ -n "${E2E_APP_PORT:-}" ] || { echo "no free port pair in 20000..29999; set E2E_APP_PORT and E2E_SIM_PORT" >&2; exit 1; }
fi
exec npx playwright test "$@"
