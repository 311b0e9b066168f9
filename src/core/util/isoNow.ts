/** The last whole second formatted, e.g. "2026-12-03T18:11:29." (what every stamp of that second starts with). */
let second = Number.NaN;
let prefix = '';

/**
 * `new Date(ms).toISOString()`, for the records written on every tool call: the date and time up
 * to the second are formatted once per second and reused, only the milliseconds are added. A
 * `new Date().toISOString()` cost ~1–3 µs per call here, the largest single step of the router.
 */
export function isoNow(now = Date.now()): string {
  const ms = Math.floor(now);
  const s = Math.floor(ms / 1000);
  if (s !== second) {
    const iso = new Date(s * 1000).toISOString();
    // "…:29.000Z" less "000Z"; years past 9999 ("+010000-…") keep their own length.
    prefix = iso.slice(0, iso.length - 4);
    second = s;
  }
  const rest = ms - s * 1000;
  return prefix + (rest < 10 ? '00' : rest < 100 ? '0' : '') + rest + 'Z';
}
