/**
 * The only URLs the host ever hands to a browser: `https:`, or `http:` to a loopback address
 * (a local authorization server, as in tests and some enterprise setups). Never another scheme
 * (`javascript:`, `file:`, `data:`, a custom protocol handler, …), never user info in the URL.
 * Returns undefined when `url` may be opened, else the reason it may not.
 */
export function whyNotOpenable(url: string | URL): string | undefined {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    return 'it is not an absolute URL';
  }
  if (u.username || u.password) return 'it carries a user name or password';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:') {
    return isLoopbackHost(u.hostname) ? undefined : 'it is plain http:// to a host that is not this machine (only https:// is opened)';
  }
  return `its scheme "${u.protocol}" is not https:`;
}

/** 127.0.0.0/8, [::1] and `localhost` (which resolves to loopback only, RFC 6761). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost' || h === '[::1]') return true;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return m !== null && m.slice(1).every((p) => Number(p) <= 255);
}
