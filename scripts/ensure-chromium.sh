#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed at /usr/bin/chromium (the browser the editor check
# drives through playwright-core). Installs the Debian package `chromium` when it is missing, with
# one non-interactive `apt-get update`; never downloads a browser any other way. Prints the version.
# Needs root (or passwordless sudo) only when Chromium is missing.
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
  export DEBIAN_FRONTEND=noninteractive
  t0=$(date +%s)
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold chromium >&2
  echo "[chromium] installed in $(( $(date +%s) - t0 )) s" >&2
fi
if [ ! -x "$chromium" ]; then
  echo "[chromium] $chromium still missing after the install" >&2
  exit 1
fi
# `chromium --version` reads no profile and opens no window. Its launcher's /etc/chromium.d/dev-shm
# check prints a harmless shell error on machines with a large /dev/shm: keep that out.
"$chromium" --version 2>/dev/null
