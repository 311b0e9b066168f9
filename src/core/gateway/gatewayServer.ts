/**
 * The gateway's server side, everything that needs @modelcontextprotocol/server: bundled apart as
 * dist/gateway.js and loaded by loadGatewayServer.ts when a gateway starts.
 */
export { Gateway } from './gateway';
export { UpstreamRelay } from './upstreamRelay';
