#!/usr/bin/env bash
# The nightly tier (npm run test:nightly; .github/workflows/nightly.yml runs it on a schedule):
# what is slow and rarely breaks, each a command the documentation names, run as a user types it.
#   test/nightly/bench.test.js        npm run bench in its smoke form, and node bench/report.js
#   test/nightly/mutation.test.js     npm run test:mutation on a few lines
#   test/nightly/errorShapes.test.js  both pinned n8n lines' error shapes re-recorded
#   test/nightly/queueEnv.test.js     bash scripts/queue-env.sh up 1 --smoke
#   test/nightly/trendWindow.test.js  the trigger's growth window on the real clock in n8n 2.x
# Same runner as the commit tier (scripts/test-run.sh): a failure names its step, its log and the
# machine's load the same way.
source "$(dirname "${BASH_SOURCE[0]}")/test-run.sh"

echo "== installs in the background: n8n 2.x and 1.x, Redis, PostgreSQL, Chromium"
start_installs
timed setup npm run --silent setup
echo "== build and npm pack" && build_and_pack
# The error shapes are recorded in both lines; queue-env needs Redis and PostgreSQL.
echo "== waiting for the pinned n8n 2.x and 1.x" && until_installed 2.x && until_installed 1.x
collect n8n-installs
collect debian-packages
echo "== the nightly layer: benchmark smoke, Stryker, error shapes, queue-env, growth window"
# Through layer.sh itself: its npm script name is this tier's (npm run test:nightly).
timed nightly bash scripts/layer.sh nightly --json --outputFile="$results/nightly.json" || failed+=(nightly)
[ "${#failed[@]}" = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
