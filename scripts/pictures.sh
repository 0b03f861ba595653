#!/usr/bin/env bash
# `npm run pictures`: every picture README.md and docs/ show (docs/images/*.png) made again from the
# current code, in the real editor as a user sees it. It is the editor layer (test/editor/:
# `npm start -- --temp` in headless Chromium, signed in with its banner's login) with
# DOCS_IMAGES=1: each picture is taken where the layer checks what it shows (the cost notice's
# text, the weekly report's chart and table), and written over docs/images/<name>.png. A picture
# that no longer matches the code shows up in `git diff docs/images`. Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
started=$(date +%s)
DOCS_IMAGES=1 bash scripts/layer.sh editor "$@"
echo "[pictures] made in $(($(date +%s) - started)) s:"
for picture in docs/images/*.png; do
  changed=$(git status --porcelain -- "$picture" 2>/dev/null | cut -c1-2 || true)
  echo "  $picture ${changed:+(changed: git diff $picture)}"
done
