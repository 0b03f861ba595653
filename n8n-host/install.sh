#!/usr/bin/env bash
# Installs a pinned n8n once per machine: the line named by the first argument or N8N_LINE (2.x by
# default; a folder n8n-host/<line>/ with package.json + package-lock.json). The install is kept
# outside the clone, keyed by the pin, Node's major and the lockfile, as CI caches are
# ($SOUND_SEARCH_CACHE, default ~/.cache/n8n-nodes-sound-search/n8n-<line>-<key>); the clone's
# folder n8n_install_dir (lib.sh) names links to it, unless it is a real one (installed before the
# cache). It lives under a dot folder: `n8n-node build` copies every *.svg/*.png outside them into
# dist/. Does nothing when the stamp of a completed install matches. README.md says why so.
#   n8n-host/install.sh [2.x|1.x] [--check]   (--check: exit 0 when installed and up to date)
set -euo pipefail
export N8N_LINE="${1:-${N8N_LINE:-2.x}}"
check_only="${2:-}"
# shellcheck source=lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
line="$(n8n_line)"
install_dir="$(n8n_install_dir)"

t0=$(date +%s.%N)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

pin="$(node -p 'require(process.argv[1]).dependencies.n8n' "$N8N_HOST_DIR/$line/package.json")"
stamp="node_modules/.n8n-host-install-stamp"
# The manifest and lockfile as committed (npm install rewrites the copy in the install folder).
stamp_value() {
  echo "n8n@$pin node@$(node -p 'process.versions.node.split(".")[0]')" \
    "$(cat "$N8N_HOST_DIR/$line/package.json" "$N8N_HOST_DIR/$line/package-lock.json" 2>/dev/null | sha256sum | cut -c1-16)"
}
cache_root="${SOUND_SEARCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-sound-search}"
mkdir -p "$cache_root" "$(dirname "$install_dir")"
if [ -d "$install_dir" ] && [ ! -L "$install_dir" ]; then
  lock="$N8N_HOST_DIR/../.cache/n8n-host-install.lock"
else
  machine_dir="$cache_root/n8n-$line-$(stamp_value | sha256sum | cut -c1-16)"
  mkdir -p "$machine_dir"
  ln -sfn "$machine_dir" "$install_dir"
  lock="$cache_root/install.lock"
fi
cd "$install_dir"

installed_version() { node -p 'require("./node_modules/n8n/package.json").version' 2>/dev/null || echo none; }
up_to_date() {
  [ -x node_modules/.bin/n8n ] && [ "$(installed_version)" = "$pin" ] &&
    [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(stamp_value)" ]
}

if up_to_date; then
  [ "$check_only" = --check ] || echo "[n8n-host] n8n $pin already installed ($(elapsed "$t0") s)" >&2
  exit 0
fi
[ "$check_only" = --check ] && exit 1

# One install at a time (of any line: two would only slow each other down), then a re-check.
exec 9>"$lock"
flock 9
if up_to_date; then
  echo "[n8n-host] n8n $pin installed by a concurrent run ($(elapsed "$t0") s)" >&2
  exit 0
fi

echo "[n8n-host] installing n8n $pin (installed: $(installed_version)); this takes a few minutes" >&2
rm -f "$stamp"
cp "$N8N_HOST_DIR/$line/package.json" "$N8N_HOST_DIR/$line/package-lock.json" . 2>/dev/null ||
  cp "$N8N_HOST_DIR/$line/package.json" . # a new line has no lockfile yet
# sqlite3's native addon is compiled against Node 24's headers (its prebuilt download is
# unreachable here; about a minute on one core) from sqlite3's own package, beside n8n's npm
# install, and kept by sqlite3 version and Node ABI for every line that pins the same.
sqlite3_version="$(node -p "require('./package-lock.json').packages['node_modules/sqlite3']?.version ?? ''" 2>/dev/null || true)"
kept="$cache_root/sqlite3-build/${sqlite3_version:-unpinned}-abi$(node -p process.versions.modules).node"
compile_sqlite3() {
  local dir addon_api
  dir="$cache_root/sqlite3-build/src-$sqlite3_version"
  addon_api="$(node -p "require('./package-lock.json').packages['node_modules/node-addon-api'].version")"
  rm -rf "$dir" && mkdir -p "$dir" && echo '{"private": true}' >"$dir/package.json"
  (cd "$dir" &&
    npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
      "sqlite3@$sqlite3_version" "node-addon-api@$addon_api" &&
    npm rebuild sqlite3 --loglevel=error &&
    cp node_modules/sqlite3/build/Release/node_sqlite3.node "$kept.tmp" && mv "$kept.tmp" "$kept")
  rm -rf "$dir"
}
compiling=
if [ -n "$sqlite3_version" ] && [ ! -f "$kept" ]; then
  mkdir -p "$(dirname "$kept")"
  compile_sqlite3 >&2 &
  compiling=$!
fi
# --ignore-scripts: @confluentinc/kafka-javascript's install script downloads from the internet.
# The lockfile copy gets its tarball addresses first (resolveLockfile.js says why); should the
# registry lay out its tarballs otherwise, the install runs again from the committed lockfile.
t1=$(date +%s.%N)
install_n8n() { npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2; }
if ! { [ -f package-lock.json ] && node "$N8N_HOST_DIR/resolveLockfile.js" package-lock.json "$(npm config get registry)" && install_n8n; }; then
  echo "[n8n-host] npm install with tarball addresses failed: again from the committed lockfile" >&2
  cp "$N8N_HOST_DIR/$line/package-lock.json" . 2>/dev/null || true
  install_n8n
fi
echo "[n8n-host] npm install: $(elapsed "$t1") s" >&2
t1=$(date +%s.%N)
addon=node_modules/sqlite3/build/Release/node_sqlite3.node
if [ -n "$compiling" ]; then
  wait "$compiling" || { echo "[n8n-host] compiling sqlite3 $sqlite3_version failed" >&2; exit 1; }
  echo "[n8n-host] sqlite3 $sqlite3_version compiled beside npm install; waited $(elapsed "$t1") s for it" >&2
fi
if [ -f "$kept" ]; then
  mkdir -p "$(dirname "$addon")" && cp "$kept" "$addon"
else # a lockfile without a top-level sqlite3: built in place
  npm rebuild sqlite3 --loglevel=error >&2
fi

[ "$(installed_version)" = "$pin" ] || { echo "[n8n-host] installed n8n is $(installed_version), expected $pin" >&2; exit 1; }
node -e 'require("./node_modules/sqlite3")' || { echo "[n8n-host] sqlite3 does not load after the rebuild" >&2; exit 1; }
stamp_value >"$stamp"
echo "[n8n-host] n8n $pin installed in $(elapsed "$t0") s" >&2
