# The runner both tiers source (scripts/test.sh, every commit; scripts/test-nightly.sh, every
# night): each step's start, end and exit status, the machine's load every 5 s, and at the end the
# timeline and one pass/fail line (test-timeline.js), all kept in $results.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/node24.sh
results=.cache/test-results
rm -rf "$results" && mkdir -p "$results"

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

# Background jobs, each its own process group (set -m) for finish() to stop; their output goes to
# .cache/<name>.log, printed by collect <name>, which counts a failure and goes on.
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
}
trap finish EXIT
# bash runs the EXIT trap on exit, not on a fatal signal.
trap "exit 143" TERM INT

# A layer through the npm script the README names, so none can rot: run_layer <results name>
# <layer> [jest args]; layer <layer> [jest args] runs one in the foreground, on the timeline.
run_layer() { npm run --silent "test:$2" -- "${@:3}" --json --outputFile="$results/$1.json"; }
layer() { timed "$1" run_layer "$1" "$@"; }

# Both tiers start alike: the machine's installs in the background (each n8n line's, kept outside
# the clone, keyed by its lockfile; Debian's packages, one apt at a time), the dev dependencies,
# and the package built and packed once: every real-n8n suite and the scanner install it.
prepare() {
  echo "== installs in the background: n8n 2.x and 1.x, Redis, PostgreSQL, Chromium"
  in_background n8n-installs bash -c 'bash n8n-host/install.sh 2.x && bash n8n-host/install.sh 1.x'
  in_background debian-packages bash -c 'bash scripts/queue-env.sh install && bash scripts/ensure-chromium.sh'
  timed setup npm run --silent setup
  echo "== build and npm pack"
  SOUND_SEARCH_TARBALL="$(timed build-and-pack node test/harness/packageTarball.js)"
  export SOUND_SEARCH_TARBALL
}
# until_installed <line>: waits for that n8n line (its install job's failure ends the run).
until_installed() {
  while ! bash n8n-host/install.sh "$1" --check; do
    kill -0 "${pid_of[n8n-installs]}" 2>/dev/null || { collect n8n-installs; exit 1; }
    sleep 2
  done
}
