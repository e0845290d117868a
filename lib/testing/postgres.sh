#!/usr/bin/env bash
# The API suite against a real PostgreSQL server started for this run, then stopped and removed,
# also when tests fail or the run is interrupted.
#
#   bash lib/testing/postgres.sh start    one server (npm run test:postgres)
#   bash lib/testing/postgres.sh citus    a Citus coordinator and 2 workers (npm run test:citus)
#
# TEST_PG_PORT picks the first port (citus also uses the next two); unset, the first free
# range from 55432 (start) or 55532 (citus) on is used. PG_TOOLS names the `pg` script of ../shared/postgres.
set -euo pipefail
cd "$(dirname "$0")/../.."

mode=${1:-}
# Each mode looks for ports in a range of its own, so that CI's two runs, started together, never
# race for one.
case "$mode" in
  start) label='PostgreSQL 15' ports=1 first=55432 ;;
  citus) label='Citus 13, 2 workers' ports=3 first=55532 ;;
  *) echo "usage: $0 start|citus" >&2; exit 2 ;;
esac

pg=${PG_TOOLS:-../shared/postgres/pg}
if [ ! -f "$pg" ]; then
  echo "test:postgres and test:citus need the PostgreSQL tools of ../shared/postgres:" >&2
  echo "  $pg is missing (set PG_TOOLS to the path of its 'pg' script)." >&2
  exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "test:postgres and test:citus need root: $pg installs packages and runs initdb as the postgres user" >&2
  exit 1
fi

. lib/testing/listening.sh
range_free() {
  for p in $(seq "$1" $(($1 + ports - 1))); do
    if listening "$p"; then return 1; fi
  done
}
if [ -n "${TEST_PG_PORT:-}" ]; then
  port=$TEST_PG_PORT
  range_free "$port" || { echo "TEST_PG_PORT=$port: a port in $port..$((port + ports - 1)) is in use" >&2; exit 1; }
else
  port=$first
  # Another run (another worktree, another engineer) may hold the default: take the next range.
  until range_free "$port"; do
    port=$((port + 10))
    [ "$port" -lt $((first + 100)) ] || { echo "no free port range in $first..$((first + 99)); set TEST_PG_PORT" >&2; exit 1; }
  done
fi

bash lib/testing/pg-build-deps.sh

dir=$(mktemp -d "${TMPDIR:-/tmp}/test-pg.XXXXXX")
# The servers run as the postgres user, which must reach their data directories inside.
chmod 711 "$dir"
runner=
cleanup() {
  status=$?
  trap - EXIT INT TERM HUP
  if [ -n "$runner" ]; then
    kill -TERM "$runner" 2>/dev/null || true
    wait "$runner" 2>/dev/null || true
  fi
  bash "$pg" stop "$dir" || true
  rm -rf "$dir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

echo "starting $label on 127.0.0.1:$port in $dir" >&2
started=$SECONDS
if [ "$mode" = citus ]; then args=(citus "$dir" "$port" 2); else args=(start "$dir" "$port"); fi
# The cleanup removes the data directories, and with them the servers' logs: a failed start shows
# their ends first, where the reason is.
start_failed() {
  echo "$pg ${args[*]} failed" >&2
  for log in "$dir"/node-*/server.log; do
    [ -f "$log" ] && { echo "── ${log#"$dir"/}" >&2; tail -n 20 "$log" >&2; }
  done
  exit 1
}
url=$(bash "$pg" "${args[@]}" | tail -n 1) || start_failed
echo "$url is up after $((SECONDS - started)) s" >&2

# In the background, so a signal runs the trap at once instead of after the tests end.
TEST_DATABASE_URL=$url node --import tsx lib/testing/stages.ts server "$label" &
runner=$!
wait "$runner"
