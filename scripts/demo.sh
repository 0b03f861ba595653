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
# n8n-core's instance settings (an encryption key in <folder>/.n8n/config) go into the clone, as
# npm start's state does, not into ~/.n8n; with the key given, n8n prints no "No encryption key
# found" line. The demo stores no credential: the key protects nothing.
export N8N_USER_FOLDER="$repo_root/.cache/demo/n8n"
export N8N_ENCRYPTION_KEY="sound-search-demo-only-key"
node scripts/demo.js "$@"
