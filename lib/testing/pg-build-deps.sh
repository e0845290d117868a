#!/usr/bin/env bash
# The Debian packages ../shared/postgres/pg needs to build pgvector and Citus. `pg install` installs
# them only when PostgreSQL itself is missing: on a machine that already has the server (Debian's
# postgresql-15 without its headers, say), the builds fail on postgres.h or libcurl. This installs
# whichever of them is missing, and nothing when all are there. Run by lib/testing/postgres.sh and
# by the bench before it calls pg.
set -euo pipefail

packages=(postgresql-15 postgresql-server-dev-15 build-essential libcurl4-openssl-dev liblz4-dev
  libzstd-dev libkrb5-dev libssl-dev libselinux1-dev libxslt1-dev libpam0g-dev libreadline-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "pg-build-deps: missing ${missing[*]}; installing them needs root" >&2
  exit 1
fi
echo "pg-build-deps: installing ${missing[*]}" >&2
bash "$(dirname "$0")/apt-install.sh" "${missing[@]}"
