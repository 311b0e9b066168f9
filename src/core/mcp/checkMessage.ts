import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { isPlainObject } from '../settings/isPlainObject';
import { jsonPreview } from '../util/text';
import { hostErrorResponse } from './hostErrorResponse';

export type CheckedMessage = { ok: true; message: JSONRPCMessage } | { ok: false; error: string };

/**
 * The structural check of one parsed JSON-RPC message, in place of the SDK's zod schema (which
 * copies every object it parses and drops a response whose `error` is malformed, so the request
 * waits for its timeout). A response with a malformed `error` or a `result` that is not an object
 * becomes an error response for its id: that request fails at once, saying why.
 * What a result contains is checked later, by the schema of the request that asked for it.
 */
export function checkMessage(value: unknown): CheckedMessage {
  if (!isPlainObject(value)) return { ok: false, error: Array.isArray(value) ? 'an array (batches are not used by MCP)' : `a ${value === null ? 'null' : typeof value}` };
  if (value.jsonrpc !== '2.0') return { ok: false, error: 'no "jsonrpc": "2.0"' };
  if ('method' in value) {
    if (typeof value.method !== 'string') return { ok: false, error: '"method" is not a string' };
    if ('id' in value && !isId(value.id)) return { ok: false, error: 'a request id that is not a string or a number' };
    if (value.params !== undefined && !isPlainObject(value.params)) return { ok: false, error: '"params" is not an object' };
    // Only the members JSON-RPC defines: the SDK's schemas are strict and drop anything else.
    const message = { jsonrpc: '2.0', ...('id' in value ? { id: value.id } : {}), method: value.method, ...(value.params !== undefined ? { params: value.params } : {}) };
    return { ok: true, message: message as JSONRPCMessage };
  }
  if (!('result' in value) && !('error' in value)) return { ok: false, error: 'neither a request, a notification nor a response' };
  if (!isId(value.id)) return { ok: false, error: 'a response without a usable id' };
  if ('error' in value) {
    const e = value.error;
    if (isPlainObject(e) && Number.isInteger(e.code) && typeof e.message === 'string') {
      const error = { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) };
      return { ok: true, message: { jsonrpc: '2.0', id: value.id, error } as JSONRPCMessage };
    }
    return { ok: true, message: hostErrorResponse(value.id, 'malformedResponse', `the server answered with a malformed error: ${jsonPreview(e)}`) };
  }
  if (!isPlainObject(value.result)) {
    return { ok: true, message: hostErrorResponse(value.id, 'malformedResponse', `the server answered with a result that is not an object: ${jsonPreview(value.result)}`) };
  }
  let result = value.result;
  if ('_meta' in result && !isPlainObject(result._meta)) {
    const { _meta: _dropped, ...rest } = result;
    result = rest;
  }
  return { ok: true, message: { jsonrpc: '2.0', id: value.id, result } as JSONRPCMessage };
}

function isId(v: unknown): v is string | number {
  return typeof v === 'string' || Number.isInteger(v);
}

