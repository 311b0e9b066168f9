/** Text safe to show inline in markdown (server-supplied text included): specials escaped, one line. */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/([\\`*_{}[\]()<>#+!|~])/g, '\\$1');
}
