#!/usr/bin/env bash
# The official UCP conformance suite against this service (npm run test:ucp):
#
#   npm run test:ucp [-- --data DIR] [--input FILE] [TEST_FILE...]
#
# Starts the store simulator holding the shop of DIR (default: the suite's flower shop) and the API
# on a fresh embedded database (lib/testing/ucp/business.ts), makes the shop a sellable UCP store,
# then runs ../shared/ucp/run-conformance against its UCP base with FILE (default DIR's
# conformance_input.json). Its last line is the suite's "N passed, M failed, K skipped"; the exit
# status is non-zero unless none failed. Everything it started is stopped, also on failure or
# interrupt. Without ../shared/ucp or python3 it says so and exits 0.
set -uo pipefail
cd "$(dirname "$0")/../.."

shared=${UCP_SHARED:-../shared/ucp}
data=$shared/conformance/test_data/flower_shop
input=
tests=()
while [ $# -gt 0 ]; do
  case "$1" in
    --data) data=${2:?--data needs a directory}; shift 2 ;;
    --input) input=${2:?--input needs a file}; shift 2 ;;
    *) tests+=("$1"); shift ;;
  esac
done
if [ ! -x "$shared/run-conformance" ]; then
  echo "test:ucp skipped: $shared/run-conformance is missing (the UCP suite lives in ../shared/ucp)"
  exit 0
fi
if ! command -v python3 >/dev/null; then
  echo "test:ucp skipped: python3 is not installed (the UCP suite is Python)"
  exit 0
fi
data=$(cd "$data" && pwd) || { echo "no test-data directory $data" >&2; exit 1; }
input=${input:-$data/conformance_input.json}

# Free ports drawn at random from 20000..29999 (see e2e/run.sh), none given out twice.
. lib/testing/listening.sh
taken=()
free_port() {
  local p
  for _ in $(seq 200); do
    p=$((20000 + RANDOM % 10000))
    if ! listening "$p" && [[ " ${taken[*]} " != *" $p "* ]]; then
      taken+=("$p")
      port=$p
      return 0
    fi
  done
  echo "no free port in 20000..29999" >&2
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/test-ucp.XXXXXX")
server=
cleanup() {
  status=$?
  trap - EXIT INT TERM HUP
  if [ -n "$server" ]; then
    # The business runs as its own process group: the signal reaches whatever it started.
    kill -TERM -- "-$server" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$server" 2>/dev/null || true
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

secret=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
# The suite is one keyless agent sending a few hundred requests a minute, more than a keyless
# agent may (RATE_LIMIT_UCP_AGENT) in production.
export DATA_DIR=$work/data DEMO_DATA=off LOG_LEVEL=${LOG_LEVEL:-warn} LOG_FORMAT=json \
  UCP_SIMULATION_SECRET=$secret UCP_AGENT_FETCH_ALLOW_HOSTS=localhost,127.0.0.1 \
  RATE_LIMIT_UCP_AGENT=1000000
unset DATABASE_URL
free_port; api=$port
free_port; sim=$port
setsid node --import tsx lib/testing/ucp/business.ts "$data" "$api" "$sim" \
  >"$work/business.out" 2>"$work/business.log" &
server=$!

url=
for _ in $(seq 600); do
  url=$(grep -o '"url":"[^"]*"' "$work/business.out" 2>/dev/null | head -1 | cut -d'"' -f4)
  [ -n "$url" ] && break
  if ! kill -0 "$server" 2>/dev/null; then break; fi
  sleep 0.2
done
if [ -z "$url" ]; then
  echo "the UCP business did not start; its log:" >&2
  tail -n 40 "$work/business.log" >&2
  exit 1
fi
echo "UCP business at $url (test data $data)"

# One run of the suite per test file, each with webhook and agent ports of its own: we retry
# webhooks an agent did not take (the reference server sends once), so a file whose agent had no
# webhook receiver up (order_test) would otherwise see its retries land in the next file's
# receiver, whose tests read the first order_placed event they get.
[ ${#tests[@]} -gt 0 ] || tests=($(cd "$shared/conformance" && ls ./*_test.py | sed 's|^\./||'))
passed=0 failed=0 skipped=0
# First, one test of our own: the bundle of the spec's JSON Schemas our answers are checked
# against (lib/ucp/schemas/spec.generated.ts) is what the generator makes from the spec beside us.
# It lives here, where ../shared is, so that npm test needs nothing outside the clone.
node --import tsx lib/tooling/ucp-schemas.ts --check
case $? in
  0) passed=1 ;;
  2) skipped=1 ;;
  *) failed=1 ;;
esac
for test in "${tests[@]}"; do
  free_port; webhook=$port
  free_port; agent=$port
  UCP_WEBHOOK_PORT=$webhook UCP_AGENT_PORT=$agent \
    "$shared/run-conformance" "$url" "$secret" "$data" "$input" "$test" >"$work/suite.out" 2>&1
  grep -vE '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$work/suite.out"
  read -r p f k < <(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$work/suite.out" |
    tail -1 | sed -E 's/([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\1 \2 \3/')
  if [ -z "${p:-}" ]; then p=0 f=1 k=0; fi
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
done
if [ "$failed" -ne 0 ]; then
  echo "server log (last 40 lines of $LOG_LEVEL and above):"
  tail -n 40 "$work/business.log"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
