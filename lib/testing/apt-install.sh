#!/usr/bin/env bash
# Installs Debian packages for the test and bench tooling (Chromium, PostgreSQL build packages),
# one install at a time: two suites run at once on a fresh machine (npm test beside test:postgres,
# two clones) both install, and apt refuses the second outright while the first holds dpkg's lock.
# Our own installs queue on a lock file; apt's own timeout covers anything else holding dpkg.
#
#   bash lib/testing/apt-install.sh [apt-get install options] PACKAGE...
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 [options] PACKAGE..." >&2; exit 2; }
exec 9>/var/lock/commerce-search-apt.lock
flock 9
apt-get -o DPkg::Lock::Timeout=600 update -qq
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null
