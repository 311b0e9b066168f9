/**
 * The tool prefix a server's name gives (`prefix` naming: `<prefix>__<tool>`). Settings refuse two
 * servers with one prefix (parseServers.ts); the registry names tools with it (tools/toolNaming.ts).
 */

const VALID_PART = /^[a-zA-Z0-9_-]+$/;

/** Replace every character a model API refuses with `_`. Never returns an empty string. */
export function sanitizeNamePart(raw: string): string {
  if (VALID_PART.test(raw)) return raw;
  const s = raw.replace(/[^a-zA-Z0-9_-]/g, '_');
  return s.length ? s : '_';
}

/** The prefix a server's tools get in `prefix` mode (also used to detect colliding server names). */
export function serverPrefix(serverName: string): string {
  return sanitizeNamePart(serverName);
}
