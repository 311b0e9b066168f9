import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { isPlainObject } from '../settings/isPlainObject';

/**
 * 2026-07-28: the HTTP headers of a request (MCP-Protocol-Version, Mcp-Method, Mcp-Name,
 * Mcp-Param-*) are missing or disagree with its body (HTTP 400). SDK v2 has no enum member for it.
 */
export const HEADER_MISMATCH = -32020;

/** The JSON-RPC and MCP error codes a person may meet, in words. */
const CODE_NAMES: Readonly<Record<number, string>> = {
  [ProtocolErrorCode.ParseError]: 'parse error',
  [ProtocolErrorCode.InvalidRequest]: 'invalid request',
  [ProtocolErrorCode.MethodNotFound]: 'method not found',
  [ProtocolErrorCode.InvalidParams]: 'invalid params',
  [ProtocolErrorCode.InternalError]: 'internal error',
  [ProtocolErrorCode.ResourceNotFound]: 'resource not found',
  [HEADER_MISMATCH]: 'header mismatch',
  [ProtocolErrorCode.MissingRequiredClientCapability]: 'missing client capability',
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 'unsupported protocol version',
  [ProtocolErrorCode.UrlElicitationRequired]: 'URL elicitation required',
};

/**
 * A server's JSON-RPC error in words for the model and the person, naming its code (SDK v2's
 * ProtocolError message is the server's text alone, without 1.x's "MCP error <code>:"). The codes
 * of 2026-07-28 say what happened and what to do; the server's own words follow.
 */
export function protocolErrorText(e: ProtocolError, server?: string): string {
  const who = server ? `server "${server}"` : 'the server';
  const said = e.message.replace(/^MCP error -?\d+: /, '').trim();
  const own = said ? `: ${said}` : '';
  const code = `error ${e.code}${CODE_NAMES[e.code] ? ` (${CODE_NAMES[e.code]})` : ''}`;
  const data: unknown = e.data;
  switch (e.code) {
    case HEADER_MISMATCH:
      return `${who} rejected the request's HTTP headers as not matching its body (${code})${own}`;
    case ProtocolErrorCode.MissingRequiredClientCapability:
      return `${who} needs a client capability MCP Host did not declare${listed(capabilityNames(data))} (${code})${own}`;
    case ProtocolErrorCode.UnsupportedProtocolVersion: {
      const supported = stringList(isPlainObject(data) ? data.supported : undefined);
      const hint = supported ? `; it supports ${supported.join(', ')} (set the server's "protocol" setting, or leave it on auto)` : '';
      return `${who} does not support the protocol version MCP Host sent (${code})${own}${hint}`;
    }
    case ProtocolErrorCode.UrlElicitationRequired:
      return `${who} needs you to complete a step in the browser before this request (${code})${own}`;
    default:
      return `${who} answered with ${code}${own}`;
  }
}

/**
 * What a person reads for a server's failure of a request (tools/call, prompts/get, resources/read):
 * a JSON-RPC error (protocolErrorText) or a 2026-07-28 server that kept asking for input past the
 * round cap; undefined for anything else. The round cap's SdkError carries the server's last
 * requestState in its data, which is never logged: only this text goes on.
 */
export function serverErrorText(e: unknown, server?: string): string | undefined {
  if (e instanceof ProtocolError) return protocolErrorText(e, server);
  if (e instanceof SdkError && e.code === SdkErrorCode.InputRequiredRoundsExceeded) {
    const rounds = (e.data as { rounds?: unknown } | undefined)?.rounds;
    const who = server ? `server "${server}"` : 'the server';
    return `${who} still asked for input after ${typeof rounds === 'number' ? rounds : 'the most'} rounds; the host stops a request there (each round asks again)`;
  }
  return undefined;
}

function listed(names: readonly string[] | undefined): string {
  return names?.length ? `: ${names.join(', ')}` : '';
}

/** The top-level capability names of `data.requiredCapabilities`, or undefined when it is not an object. */
function capabilityNames(data: unknown): string[] | undefined {
  const caps = isPlainObject(data) ? data.requiredCapabilities : undefined;
  return isPlainObject(caps) ? Object.keys(caps).slice(0, 10) : undefined;
}

/** Up to 10 short strings of a server-sent list, or undefined when it is not one. */
function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items = value.filter((v): v is string => typeof v === 'string' && v.length <= 40).slice(0, 10);
  return items.length ? items : undefined;
}
