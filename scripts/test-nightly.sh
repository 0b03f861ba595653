#!/usr/bin/env bash
# The nightly tier (npm run test:nightly; .github/workflows/nightly.yml runs it on a schedule): what
# is slow and rarely breaks, each a command the documentation names, run as a user types it
# (test/nightly/: the benchmark smoke and re-render, Stryker on a few lines, the error shapes
# re-recorded, queue-env's smoke, the growth window on the real clock, the docs' pictures made again
# with npm run pictures), on the commit tier's runner.
source "$(dirname "${BASH_SOURCE[0]}")/test-run.sh"

prepare
# The error shapes are recorded in both lines; queue-env needs Redis and PostgreSQL, the pictures
# Chromium.
echo "== waiting for the pinned n8n 2.x and 1.x" && until_installed 2.x && until_installed 1.x
collect n8n-installs
collect debian-packages
echo "== the nightly layer: benchmark smoke and queue measurement, Stryker, error shapes, queue-env, growth window, pictures"
# Through layer.sh itself: its npm script name is this tier's (npm run test:nightly).
timed nightly bash scripts/layer.sh nightly --json --outputFile="$results/nightly.json" || failed+=(nightly)
[ "${#failed[@]}" = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
