/**
 * The gateway's server side, loaded when the first gateway starts (the editor's setting or
 * `mcp-host gateway`). In the bundles, esbuild.js maps this require to the separate file
 * dist/gateway.js (built from gatewayServer.ts), so a start without the gateway never reads the MCP
 * server SDK; under tsx and mocha it is the source.
 */
export function loadGatewayServer(): typeof import('./gatewayServer') {
  // A require, not import(): the bundles' CommonJS output keeps it as a plain require of ./gateway.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./gatewayServer') as typeof import('./gatewayServer');
}
