/** The message of an error, or the thing thrown as text. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/**
 * The error and what caused it, nearest first, at most `depth` of them (fetch and the SDK wrap the
 * real cause; a cycle cannot loop). Follows `cause` on any object, as thrown values need not be Errors.
 */
export function errorChain(e: unknown, depth: number): unknown[] {
  const chain: unknown[] = [];
  for (let cur = e; cur !== undefined && cur !== null && chain.length < depth; cur = (cur as { cause?: unknown }).cause) chain.push(cur);
  return chain;
}
