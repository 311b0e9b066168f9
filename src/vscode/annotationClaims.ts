import type { ToolAnnotations } from '@modelcontextprotocol/client';

/**
 * A tool's annotations as the server's own claims, e.g. `read-only, not destructive`. Undefined
 * when the server claims nothing. Only shown to people: the host's settings decide confirmation.
 */
export function annotationClaims(annotations: ToolAnnotations | undefined): string | undefined {
  if (!annotations) return undefined;
  const claims: string[] = [];
  const flag = (value: unknown, yes: string, no: string) => {
    if (value === true) claims.push(yes);
    else if (value === false) claims.push(no);
  };
  flag(annotations.readOnlyHint, 'read-only', 'not read-only');
  flag(annotations.destructiveHint, 'destructive', 'not destructive');
  flag(annotations.idempotentHint, 'idempotent', 'not idempotent');
  flag(annotations.openWorldHint, 'reaches outside systems (open world)', 'closed world');
  return claims.length ? claims.join(', ') : undefined;
}

/** `The server claims: read-only, not destructive.` or a sentence saying it claims nothing. */
export function annotationClaimsSentence(annotations: ToolAnnotations | undefined): string {
  const claims = annotationClaims(annotations);
  return claims ? `The server claims: ${claims}.` : 'The server makes no claims about this tool (no annotations).';
}
