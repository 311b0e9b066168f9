/**
 * A server's JSON-RPC error in words (issue 27 item 3): the codes of 2026-07-28 say what happened and
 * what to do, and every text names the code (SDK v2's ProtocolError message no longer does). The
 * last case is end to end: a host that declares no elicitation calls the modern fixture's
 * confirm_action, and the server's -32021 reaches the model as a sentence.
 */
import * as assert from 'node:assert/strict';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { HEADER_MISMATCH, protocolErrorText } from '../../../../src/core/mcp/protocolErrorText';
import { settings, stateKind, useTestEnv } from '../helpers';

describe('protocolErrorText', () => {
  it('-32020 header mismatch', () => {
    assert.equal(
      protocolErrorText(new ProtocolError(HEADER_MISMATCH, 'Mcp-Param-Region does not match'), 'api'),
      'server "api" rejected the request\'s HTTP headers as not matching its body (error -32020 (header mismatch)): Mcp-Param-Region does not match',
    );
  });

  it('-32021 names the capabilities the server requires', () => {
    const e = new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, 'needs elicitation', { requiredCapabilities: { elicitation: {} } });
    assert.equal(protocolErrorText(e, 'api'), 'server "api" needs a client capability MCP Host did not declare: elicitation (error -32021 (missing client capability)): needs elicitation');
  });

  it('-32022 names the versions the server supports and the setting to change', () => {
    const e = new ProtocolError(ProtocolErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: '2025-11-25' });
    assert.match(protocolErrorText(e, 'api'), /^server "api" does not support the protocol version MCP Host sent \(error -32022 \(unsupported protocol version\)\): Unsupported protocol version; it supports 2026-07-28 \(set the server's "protocol" setting/);
  });

  it('-32022 with malformed data still reads', () => {
    const e = new ProtocolError(ProtocolErrorCode.UnsupportedProtocolVersion, 'no', { supported: 'everything' });
    assert.equal(protocolErrorText(e), 'the server does not support the protocol version MCP Host sent (error -32022 (unsupported protocol version)): no');
  });

  it('-32042 URL elicitation required', () => {
    assert.match(protocolErrorText(new ProtocolError(ProtocolErrorCode.UrlElicitationRequired, 'sign in first', { elicitations: [] }), 'api'), /needs you to complete a step in the browser.*-32042/);
  });

  it('other codes: named with their meaning; unknown codes by number; a 1.x-style prefix is not doubled', () => {
    assert.equal(protocolErrorText(new ProtocolError(ProtocolErrorCode.InternalError, 'boom'), 'api'), 'server "api" answered with error -32603 (internal error): boom');
    assert.equal(protocolErrorText(new ProtocolError(-31999, 'odd')), 'the server answered with error -31999: odd');
    assert.equal(protocolErrorText(new ProtocolError(ProtocolErrorCode.InvalidParams, 'MCP error -32602: bad')), 'the server answered with error -32602 (invalid params): bad');
  });
});

describe('a server error code through the host', function () {
  this.timeout(60_000);
  const env = useTestEnv();

  it('a host that declares no elicitation: the modern server answers -32021, the model reads why', async () => {
    const h = await env.started({ settings: settings({ servers: [env.stdio('modern', 'modern/server', { connectTimeoutMs: 20_000 })], autoApprove: ['*/*'] }) });
    assert.equal(stateKind(h, 'modern'), 'connected', h.log.text());
    const r = await h.call({ name: 'modern__confirm_action', args: { action: 'deploy' } });
    assert.equal(r.outcome, 'error', r.modelText);
    assert.match(r.modelText, /^Tool "modern__confirm_action" failed: server "modern" needs a client capability MCP Host did not declare: elicitation \(error -32021/);
  });
});
