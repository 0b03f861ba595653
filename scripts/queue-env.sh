#!/usr/bin/env bash
# The queue-mode test environment (n8n's "queue mode": a main instance, Redis, workers, a shared
# PostgreSQL). Used by the queue-mode suite (test/queue/, through test/harness/queue/) and
# by hand:
#
#   bash scripts/queue-env.sh install   # install what is missing (Debian's redis-server and
#                                       # PostgreSQL); prints REDIS_SERVER=... and PG_BIN=...
#   bash scripts/queue-env.sh check     # the same without installing (exit 3 when missing)
#   bash scripts/queue-env.sh up [N]    # private Redis and PostgreSQL, the reference service, a
#                                       # main and N workers (default 2); prints the URLs; Ctrl-C
#                                       # tears it down (add --smoke: torn down once it is up)
#
# install/check exit 3 when Redis or PostgreSQL is missing and cannot be installed here (not root
# and no password-less sudo, or apt-get failed): the test suite then skips with that message.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/.." && pwd)"

say() { echo "[queue-env] $*" >&2; }

# The newest PostgreSQL server binaries on the machine (Debian: /usr/lib/postgresql/<major>/bin).
find_pg_bin() {
  local dir best="" best_major=0 major
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ] && [ -x "$dir/pg_isready" ] || continue
    major="$(basename "$(dirname "$dir")")"
    major="${major%%.*}"
    if [ "$major" -gt "$best_major" ] 2>/dev/null; then best="$dir"; best_major="$major"; fi
  done
  if [ -z "$best" ] && command -v pg_config >/dev/null 2>&1; then
    dir="$(pg_config --bindir 2>/dev/null || true)"
    [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ] && best="$dir"
  fi
  echo "$best"
}

find_redis() { command -v redis-server 2>/dev/null || { [ -x /usr/bin/redis-server ] && echo /usr/bin/redis-server; } || true; }

# Runs apt-get as root (directly, or through password-less sudo). Waits up to 10 minutes for the
# dpkg lock: other jobs on the machine may be installing packages at the same time.
apt_get() {
  local runner=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then runner=(sudo -n); else return 90; fi
  fi
  "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q "$@"
}

# apt_install <package>...: install; on failure refresh the package lists once and try again.
apt_install() {
  command -v apt-get >/dev/null 2>&1 || { say "no apt-get on this machine"; return 90; }
  local status=0
  apt_get install -y --no-install-recommends "$@" >&2 || status=$?
  [ "$status" -eq 0 ] && return 0
  [ "$status" -eq 90 ] && { say "not root and no password-less sudo: cannot install $*"; return 90; }
  say "apt-get install $* failed ($status); running apt-get update and trying again"
  apt_get update >&2 || true
  apt_get install -y --no-install-recommends "$@" >&2
}

cmd_install() {
  local install="$1" redis pg missing=()
  redis="$(find_redis)"
  pg="$(find_pg_bin)"
  [ -n "$redis" ] || missing+=(redis-server)
  # `postgresql` is Debian's "current version" package (PostgreSQL 15 on Debian 12). Its server
  # binaries are all this environment uses: clusters are made with initdb in a temp folder.
  [ -n "$pg" ] || missing+=(postgresql)
  if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$install" != yes ]; then
      say "missing: ${missing[*]} (run: bash scripts/queue-env.sh install)"
      return 3
    fi
    say "installing Debian packages: ${missing[*]}"
    if ! apt_install "${missing[@]}"; then
      say "could not install ${missing[*]}: the queue-mode environment is not available here"
      return 3
    fi
    redis="$(find_redis)"
    pg="$(find_pg_bin)"
    if [ -z "$redis" ] || [ -z "$pg" ]; then
      say "installed ${missing[*]}, but redis-server or the PostgreSQL server binaries are still not found"
      return 3
    fi
  fi
  echo "REDIS_SERVER=$redis"
  echo "PG_BIN=$pg"
  echo "REDIS_VERSION=$("$redis" --version | sed -n 's/.* v=\([^ ]*\).*/\1/p')"
  echo "PG_VERSION=$("$pg/postgres" --version | sed -n 's/^postgres (PostgreSQL) \([0-9.]*\).*/\1/p')"
}

case "${1:-install}" in
  install) cmd_install yes ;;
  check) cmd_install no ;;
  up)
    cmd_install yes >/dev/null
    bash "$repo_root/scripts/setup.sh"
    # shellcheck source=node24.sh
    source "$repo_root/scripts/node24.sh"
    bash "$repo_root/n8n-host/install.sh"
    cd "$repo_root"
    exec node test/harness/queue/cli.js up --workers "${2:-2}" "${@:3}"
    ;;
  *)
    echo "usage: bash scripts/queue-env.sh [install|check|up [workers] [--smoke]]" >&2
    exit 2
    ;;
esac
