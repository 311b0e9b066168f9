#!/usr/bin/env node
// The conformance suite's client command, made of the real CLI (dist/cli.js):
//
//   node scripts/conformance/cliClient.mjs <server-url>
//
// The suite appends the scenario server's URL and sets MCP_CONFORMANCE_SCENARIO and, for some
// scenarios, MCP_CONFORMANCE_CONTEXT (pre-registered credentials, a private key). This script
// writes a workspace whose .vscode/settings.json configures that URL as the remote server
// "conformance", with the "oauth" settings a user would write for the scenario:
//   auth/pre-registration          { clientId, clientSecret: "${secret:CONFORMANCE_CLIENT_SECRET}" }
//   auth/client-credentials-basic  { grant: "client_credentials", clientId, clientSecret: "${secret:…}" }
//   auth/client-credentials-jwt    { grant: "client_credentials", clientId, privateKey: "${secret:CONFORMANCE_PRIVATE_KEY}", signingAlgorithm }
//   any other scenario             { clientMetadataUrl: "https://conformance-test.local/client-metadata.json" }
//                                  (used where the server supports client ID metadata documents, else dynamic registration)
// The secrets reach the CLI as MCP_HOST_SECRET_* environment variables, as a user's would. Then it
// runs what a user would run:
//   1. mcp-host check --login --json   connect; sign in with $BROWSER where the server asks; list tools
//   2. mcp-host call <first tool> --login --yes   with the stored credentials (a step-up signs in again)
// Everything the CLI prints is passed through on stderr. Exit code: the CLI's (check's when it fails).
// MCP_HOST_CONFORMANCE_WORKSPACE: the workspace folder to write (default: a new temp folder).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

const serverUrl = process.argv[2];
if (!serverUrl) {
  process.stderr.write('usage: cliClient.mjs <server-url>\n');
  process.exit(2);
}
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const secrets = {};

function oauthFor() {
  if (scenario === 'auth/pre-registration' || scenario === 'auth/client-credentials-basic') {
    secrets.MCP_HOST_SECRET_CONFORMANCE_CLIENT_SECRET = context.client_secret;
    return {
      ...(scenario === 'auth/client-credentials-basic' ? { grant: 'client_credentials' } : {}),
      clientId: context.client_id,
      clientSecret: '${secret:CONFORMANCE_CLIENT_SECRET}',
    };
  }
  if (scenario === 'auth/client-credentials-jwt') {
    secrets.MCP_HOST_SECRET_CONFORMANCE_PRIVATE_KEY = context.private_key_pem;
    return {
      grant: 'client_credentials',
      clientId: context.client_id,
      privateKey: '${secret:CONFORMANCE_PRIVATE_KEY}',
      ...(context.signing_algorithm ? { signingAlgorithm: context.signing_algorithm } : {}),
    };
  }
  return { clientMetadataUrl: CIMD_URL };
}

const workspace = process.env.MCP_HOST_CONFORMANCE_WORKSPACE || fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-conformance-ws-'));
fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
const settings = {
  'mcpHost.servers': { conformance: { type: 'http', url: serverUrl, oauth: oauthFor() } },
  'mcpHost.autoApprove': ['conformance/*'],
  'mcpHost.audit.path': '.mcp-host/audit.jsonl',
};
fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));

function cli(args) {
  process.stderr.write(`[cli-client] mcp-host ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', workspace], {
    env: { ...process.env, ...secrets },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  process.stderr.write(r.stderr ?? '');
  if (r.error) process.stderr.write(`[cli-client] ${r.error.message}\n`);
  return { code: r.status ?? 1, stdout: r.stdout ?? '' };
}

const check = cli(['check', '--login', '--json']);
process.stderr.write(check.stdout);
if (check.code !== 0) {
  process.stderr.write(`[cli-client] check exited with ${check.code}\n`);
  process.exit(check.code);
}
const tools = JSON.parse(check.stdout).tools;
process.stderr.write(`[cli-client] tools: ${tools.map((t) => t.name).join(', ') || '(none)'}\n`);
if (tools.length === 0) process.exit(0);
const call = cli(['call', tools[0].name, '--login', '--yes']);
process.stderr.write(call.stdout);
process.exit(call.code);
