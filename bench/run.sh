#!/usr/bin/env bash
# `npm run bench`: the benchmark in one command on a fresh clone. Installs what it needs (Node 24,
# the locked dev dependencies, the pinned n8n), then runs bench/run.js with the arguments given
# (`npm run bench -- --smoke`, `--help`).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/../scripts/setup.sh"
# shellcheck source=../scripts/node24.sh
source "$here/../scripts/node24.sh"
bash "$repo_root/n8n-host/install.sh"
cd "$repo_root"
exec node bench/run.js "$@"
