# Bash helpers for running a pinned n8n (n8n-host/<line>/, the line in N8N_LINE: 2.x by default)
# headless and offline; test/harness/n8n/ takes its environment from here too. Source this file:
#   source n8n-host/lib.sh
#   n8n_env "$folder" 5678 5679 && "$(n8n_bin)" import:workflow --input=wf.json

N8N_HOST_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export N8N_HOST_DIR
# Node 24 first on PATH: n8n 2.x needs it (its bin and task runner run `node`); 1.123.x runs on it.
# shellcheck source=../scripts/node24.sh
source "$N8N_HOST_DIR/../scripts/node24.sh"

# n8n_line: prints the selected line (N8N_LINE, default 2.x); fails for a line without a host folder.
n8n_line() {
  local line="${N8N_LINE:-2.x}"
  if [ ! -f "$N8N_HOST_DIR/$line/package.json" ]; then
    echo "N8N_LINE=$line: no n8n-host/$line/package.json (lines: $(cd "$N8N_HOST_DIR" && ls -d */ | tr -d / | xargs))" >&2
    return 1
  fi
  echo "$line"
}

# n8n_install_dir: where the selected line is installed (gitignored, under a dot folder; 2.x keeps
# the folder it had before there were two lines).
n8n_install_dir() {
  local line
  line="$(n8n_line)" || return 1
  if [ "$line" = 2.x ]; then echo "$N8N_HOST_DIR/../.cache/n8n-host"; else echo "$N8N_HOST_DIR/../.cache/n8n-host-$line"; fi
}

# The encryption key of throw-away test user folders. Never use it for anything real.
N8N_TEST_ENCRYPTION_KEY="n8n-nodes-sound-search-test-only-key"

# n8n_bin: the selected line's n8n executable.
n8n_bin() {
  local dir
  dir="$(n8n_install_dir)" || return 1
  echo "$dir/node_modules/.bin/n8n"
}

# n8n_env <userFolder> <port> <brokerPort>: exports the environment of a headless n8n with its
# state in <userFolder>/.n8n, listening on 127.0.0.1 only, reaching nothing on the internet.
n8n_env() {
  if [ $# -ne 3 ]; then
    echo "usage: n8n_env <userFolder> <port> <brokerPort>" >&2
    return 2
  fi
  local folder="$1" port="$2" broker="$3"
  mkdir -p "$folder"
  export N8N_USER_FOLDER="$folder"
  export N8N_ENCRYPTION_KEY="$N8N_TEST_ENCRYPTION_KEY"
  # Network: bind the editor/API and the task-runner broker to loopback only.
  export N8N_LISTEN_ADDRESS=127.0.0.1
  export N8N_HOST=127.0.0.1
  export N8N_PROTOCOL=http
  export N8N_PORT="$port"
  export WEBHOOK_URL="http://127.0.0.1:$port/"
  export N8N_EDITOR_BASE_URL="http://127.0.0.1:$port/"
  export N8N_RUNNERS_BROKER_LISTEN_ADDRESS=127.0.0.1
  export N8N_RUNNERS_BROKER_PORT="$broker"
  export N8N_SECURE_COOKIE=false
  # Everything that phones home is off.
  export N8N_DIAGNOSTICS_ENABLED=false
  export N8N_VERSION_NOTIFICATIONS_ENABLED=false
  export N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED=false
  export N8N_TEMPLATES_ENABLED=false
  export N8N_DYNAMIC_BANNERS_ENABLED=false
  export N8N_HIRING_BANNER_ENABLED=false
  export N8N_PERSONALIZATION_ENABLED=false
  export N8N_LICENSE_AUTO_RENEW_ENABLED=false
  export N8N_LICENSE_DETACH_FLOATING_ON_SHUTDOWN=false
  export N8N_REINSTALL_MISSING_PACKAGES=false
  export N8N_VERIFIED_PACKAGES_ENABLED=false
  export N8N_AI_ENABLED=false
  # Settings of one line only (2.x: modules that reach the internet at start, which 1.x lacks).
  local line
  line="$(n8n_line)" || return 1
  if [ -f "$N8N_HOST_DIR/$line/env.sh" ]; then
    # shellcheck disable=SC1090
    source "$N8N_HOST_DIR/$line/env.sh"
  fi
  # No Python in the Code node (no venv): n8n's "Failed to start Python task runner" is harmless.
  export N8N_PYTHON_ENABLED=false
  # Tests talk to fake services on 127.0.0.1.
  export N8N_SSRF_PROTECTION_ENABLED=false
  export N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=false
  export EXECUTIONS_MODE=regular
  export GENERIC_TIMEZONE=UTC
  export TZ=UTC
  export N8N_LOG_LEVEL="${N8N_LOG_LEVEL:-info}"
  export N8N_LOG_OUTPUT=console
  export NO_COLOR=1
  export FORCE_COLOR=0
}

# install_package_tarball <tgz> <userFolder>
# Installs an `npm pack` tarball as n8n's community-package installer does (community-packages
# .service.js, downloadPackage): unpacked into <userFolder>/.n8n/nodes/node_modules/<name>, its
# dev, peer and optional dependencies dropped, <name>: <version> recorded in nodes/package.json.
# n8n loads every nodes/node_modules/n8n-nodes-* at start; the package is NOT in n8n's
# installed_packages table, so GET /rest/community-packages does not list it.
install_package_tarball() {
  if [ $# -ne 2 ]; then
    echo "usage: install_package_tarball <tgz> <userFolder>" >&2
    return 2
  fi
  local tgz folder nodes_dir name version dest
  tgz="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  folder="$2"
  [ -f "$tgz" ] || { echo "install_package_tarball: no such file: $1" >&2; return 1; }
  nodes_dir="$folder/.n8n/nodes"
  name="$(tar -xzOf "$tgz" package/package.json | node -e \
    'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).name))')" \
    || { echo "install_package_tarball: cannot read package/package.json in $tgz" >&2; return 1; }
  case "$name" in
    n8n-nodes-*|@*/n8n-nodes-*) ;;
    *) echo "install_package_tarball: '$name' does not start with n8n-nodes- (n8n would not load it)" >&2; return 1 ;;
  esac
  dest="$nodes_dir/node_modules/$name"
  rm -rf "$dest"
  mkdir -p "$dest"
  tar -xzf "$tgz" -C "$dest" --strip-components=1 || return 1
  version="$(node -e '
    const fs = require("fs");
    const [dest, nodesDir, name] = process.argv.slice(1);
    const pjPath = dest + "/package.json";
    const { devDependencies, peerDependencies, optionalDependencies, ...pj } =
      JSON.parse(fs.readFileSync(pjPath, "utf8"));
    fs.writeFileSync(pjPath, JSON.stringify(pj, null, 2), "utf8");
    if (pj.dependencies && Object.keys(pj.dependencies).length > 0) {
      console.error("install_package_tarball: " + name + " has runtime dependencies; n8n would npm install them, this helper does not");
      process.exit(3);
    }
    const rootPath = nodesDir + "/package.json";
    let root = { name: "installed-nodes", private: true, dependencies: {} };
    if (fs.existsSync(rootPath)) root = JSON.parse(fs.readFileSync(rootPath, "utf8"));
    root.dependencies = { ...(root.dependencies || {}), [name]: pj.version };
    fs.writeFileSync(rootPath, JSON.stringify(root, null, 2), "utf8");
    process.stdout.write(pj.version);
  ' "$dest" "$nodes_dir" "$name")" || return 1
  echo "installed $name@$version into $dest" >&2
}
