#!/usr/bin/env bash
# Installs what the project needs on a fresh machine: Node 24 (from the npm registry, see
# node24.sh) and the locked dev dependencies. Quick no-op when node_modules matches the lockfile.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node24.sh"
cd "$repo_root"
stamp=node_modules/.setup-stamp
want="node@$(node -p 'process.versions.node') $(sha256sum package-lock.json | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "[setup] installing dev dependencies" >&2
  # `npm install` with the lockfile, not `npm ci`: ci rejects this lockfile over optional
  # platform-specific packages of other systems that npm leaves out of it.
  npm install --no-audit --no-fund --loglevel=error >&2
  echo "$want" > "$stamp"
fi
