#!/usr/bin/env bash
# One search through n8n's execution engine against the local reference service, printed as a
# table with the credits each call cost. Arguments: [query] [platform] [limit].
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
bash "$here/setup.sh"
source "$here/node24.sh"
cd "$repo_root"
# The engine harness and the node, compiled with the tests' tsconfig into .cache/demo (about 3 s):
# emit only, since npm test type-checks the same files.
npx tsc -p tsconfig.test.json --noEmit false --noCheck --declaration false --sourceMap false \
  --outDir .cache/demo
node scripts/demo.js "$@"
