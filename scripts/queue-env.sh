#!/usr/bin/env bash
# The queue-mode test environment (n8n's "queue mode": a main, Redis, workers, a shared
# PostgreSQL), for the queue-mode suite (test/queue/, through test/harness/queue/) and by hand:
#
#   bash scripts/queue-env.sh install   # install what is missing (Debian's redis-server and
#                                       # PostgreSQL); prints REDIS_SERVER=... and PG_BIN=...
#   bash scripts/queue-env.sh up [N]    # private Redis and PostgreSQL, the reference service, a
#                                       # main and N workers (default 2); prints the URLs; Ctrl-C
#                                       # tears it down (add --smoke: torn down once it is up)
#
# install exits 3 when Redis or PostgreSQL is missing and cannot be installed here (not root and
# no password-less sudo, or apt-get failed): the test suite then skips with that message.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

say() { echo "[queue-env] $*" >&2; }

# The newest PostgreSQL server binaries on the machine (Debian: /usr/lib/postgresql/<major>/bin).
find_pg_bin() {
  local dir
  for dir in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -t/ -k5 -nr); do
    [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ] && [ -x "$dir/pg_isready" ] && { echo "$dir"; return; }
  done
  true
}

find_redis() { command -v redis-server || true; }

# apt-get install as root (or through password-less sudo), waiting up to 10 minutes for the dpkg
# lock (other jobs may be installing packages); again after an update if it failed.
apt_install() {
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q)
  command -v apt-get >/dev/null 2>&1 || { say "no apt-get on this machine"; return 1; }
  if [ "$(id -u)" -ne 0 ]; then
    sudo -n true 2>/dev/null || { say "not root and no password-less sudo: cannot install $*"; return 1; }
    apt=(sudo -n "${apt[@]}")
  fi
  "${apt[@]}" install -y --no-install-recommends "$@" >&2 && return 0
  "${apt[@]}" update >&2 || true
  "${apt[@]}" install -y --no-install-recommends "$@" >&2
}

cmd_install() {
  local redis pg missing=()
  redis="$(find_redis)"
  pg="$(find_pg_bin)"
  [ -n "$redis" ] || missing+=(redis-server)
  # Debian's "current version" package; only its server binaries are used (initdb into a temp folder).
  [ -n "$pg" ] || missing+=(postgresql)
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    apt_install "${missing[@]}" || { say "could not install ${missing[*]}: no queue-mode environment here"; return 3; }
    redis="$(find_redis)"
    pg="$(find_pg_bin)"
    [ -n "$redis" ] && [ -n "$pg" ] || { say "installed ${missing[*]}, but redis-server or PostgreSQL's binaries are still not found"; return 3; }
  fi
  echo "REDIS_SERVER=$redis"
  echo "PG_BIN=$pg"
  echo "REDIS_VERSION=$("$redis" --version | sed -n 's/.* v=\([^ ]*\).*/\1/p')"
  echo "PG_VERSION=$("$pg/postgres" --version | sed -n 's/^postgres (PostgreSQL) \([0-9.]*\).*/\1/p')"
}

case "${1:-install}" in
  install) cmd_install ;;
  up)
    cmd_install >/dev/null
    bash "$repo_root/scripts/setup.sh"
    # shellcheck source=node24.sh
    source "$repo_root/scripts/node24.sh"
    bash "$repo_root/n8n-host/install.sh"
    cd "$repo_root"
    exec node test/harness/queue/cli.js up --workers "${2:-2}" "${@:3}"
    ;;
  *)
    echo "usage: bash scripts/queue-env.sh [install|up [workers] [--smoke]]" >&2
    exit 2
    ;;
esac
