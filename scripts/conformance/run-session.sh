#!/usr/bin/env bash
# The conformance suite's non-auth client scenarios with `mcp-host session` as the client:
# scripts/conformance/sessionDriver.mjs writes a workspace naming the scenario's server, starts the
# session and drives it (lists the tools, calls each, accepts every elicitation form as offered).
#
#   bash scripts/conformance/run-session.sh                 # initialize, tools_call, sse-retry,
#                                                           # elicitation-sep1034-client-defaults
#   bash scripts/conformance/run-session.sh --scenario tools_call --out /tmp/results
#
# Everything else (caches, the loopback-only namespace, the report, the exit code) is run.sh's.
# MCP_HOST_CLI sets the CLI command (default: the sources through tsx; e.g. "node dist/cli.js").
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SESSION_SCENARIOS=(initialize tools_call sse-retry elicitation-sep1034-client-defaults)
args=()
have_scenario=0
for a in "$@"; do
  [ "$a" = --scenario ] && have_scenario=1
  args+=("$a")
done
if [ "$have_scenario" = 0 ]; then for s in "${SESSION_SCENARIOS[@]}"; do args+=(--scenario "$s"); done; fi
exec bash "$REPO/scripts/conformance/run.sh" --client "node $REPO/scripts/conformance/sessionDriver.mjs" "${args[@]}"
