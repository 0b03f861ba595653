#!/usr/bin/env bash
# One search through n8n's execution engine against the local reference service, printed as a
# table with the credits each call cost. Arguments: [query] [platform] [limit].
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
bash "$here/setup.sh"
source "$here/node24.sh"
cd "$repo_root"
npx tsc -p tsconfig.demo.json
node scripts/demo.js "$@"
