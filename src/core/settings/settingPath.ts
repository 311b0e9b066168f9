/** The section every setting lives under: `mcpHost.servers`, `mcpHost.audit.path`, … */
export const SETTINGS_SECTION = 'mcpHost';

export type PathSegment = string | number;

const PLAIN_KEY = /^[\w$-]+$/;

/** `['servers', 'orders', 'args', 1]` → `mcpHost.servers.orders.args[1]`; odd keys are quoted: `mcpHost.servers["a.b"]`. */
export function settingPath(segments: readonly PathSegment[]): string {
  let out = SETTINGS_SECTION;
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (PLAIN_KEY.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}
