#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium (the browser the editor check drives through
# playwright-core): installs the Debian package `chromium` when it is missing, never a browser any
# other way. Needs root (or passwordless sudo) only then. Prints the version.
set -euo pipefail
chromium=/usr/bin/chromium
if [ ! -x "$chromium" ]; then
  echo "[chromium] $chromium is missing: installing Debian's chromium package" >&2
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    echo "[chromium] installing needs root: run 'apt-get install -y chromium' as root" >&2
    exit 1
  fi
  t0=$(date +%s)
  apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
  "${apt[@]}" update -qq >&2
  "${apt[@]}" install -y -qq --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold chromium >&2
  echo "[chromium] installed in $(($(date +%s) - t0)) s" >&2
  [ -x "$chromium" ] || { echo "[chromium] $chromium still missing after the install" >&2; exit 1; }
fi
# The launcher's /etc/chromium.d/dev-shm check prints a harmless error on a large /dev/shm.
"$chromium" --version 2>/dev/null
