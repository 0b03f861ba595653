#!/usr/bin/env bash
# The whole test run (what CI runs): set-up, build, strict lint, then every jest suite.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
bash "$here/setup.sh"
source "$here/node24.sh"
cd "$repo_root"
echo "== build" && npx n8n-node build >/dev/null
echo "== lint (strict)" && npx n8n-node lint
echo "== type-check tests" && npx tsc -p tsconfig.test.json
echo "== unit, engine and reference-service tests" && npx jest "$@"
echo "== community-package scanner (source tree and packed tarball)" && node test/scanner/scan.mjs
