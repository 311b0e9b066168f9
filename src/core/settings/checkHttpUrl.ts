/** Undefined when `url` is an absolute http(s) URL, else the "expected …" text. */
export function checkHttpUrl(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol === 'http:' || u.protocol === 'https:') return undefined;
  } catch {
    // fall through
  }
  return 'expected an absolute http:// or https:// URL';
}
