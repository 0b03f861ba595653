#!/usr/bin/env bash
# `npm run bench`: the benchmark in one command on a fresh clone. Installs what it needs (Node 24,
# the locked dev dependencies, the pinned n8n into .cache/n8n-host), then runs bench/run.js, which
# packs the package, starts the reference service and one n8n, measures, stops everything and
# writes BENCHMARKS.md. Arguments go to bench/run.js (`npm run bench -- --smoke`, `--help`).
# The full run passes or fails nothing in CI; `npm run bench -- --smoke` (every phase at a tiny
# size, about a minute, report in .cache/bench/smoke.md) exits non-zero when a phase fails.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/../scripts/setup.sh"
# shellcheck source=../scripts/node24.sh
source "$here/../scripts/node24.sh"
bash "$repo_root/n8n-host/install.sh"
cd "$repo_root"
exec node bench/run.js "$@"
