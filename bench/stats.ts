/**
 * Statistics for the benchmarks (no dependencies): percentiles, a seeded PRNG, and the block
 * bootstrap that gives every judged figure its 95 % confidence interval.
 */

/** mulberry32: a small seeded PRNG, so block orders and bootstrap resamples repeat run to run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A shuffled copy (Fisher–Yates with `rand`). */
export function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** k-th smallest (0-based) of `a[lo..hi]`, rearranging `a` in place (Hoare quickselect). */
function select(a: Float64Array, k: number, lo = 0, hi = a.length - 1): number {
  while (hi > lo) {
    const pivot = a[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

/**
 * The p-th percentile (0..100), linear interpolation between closest ranks. Works on a copy; O(n).
 */
export function percentile(values: ArrayLike<number>, p: number): number {
  const n = values.length;
  if (n === 0) return NaN;
  const a = Float64Array.from(values);
  if (n === 1) return a[0];
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (n - 1);
  const lo = Math.floor(rank);
  const below = select(a, lo);
  if (rank === lo) return below;
  // After select, everything right of `lo` is ≥ a[lo]: the next order statistic is their minimum.
  let next = Infinity;
  for (let i = lo + 1; i < n; i++) if (a[i] < next) next = a[i];
  return below + (next - below) * (rank - lo);
}

export function median(values: ArrayLike<number>): number {
  return percentile(values, 50);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? NaN : num / den;
}

export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

export interface BootstrapOptions {
  readonly resamples?: number;
  readonly seed?: number;
}

export const BOOTSTRAP_RESAMPLES = 2000;
export const BOOTSTRAP_SEED = 20260;

/**
 * Block bootstrap: the 2.5th and 97.5th percentiles of `stat` over resamples of whole blocks
 * (drawn with replacement, as many as there are). Blocks are the unit because calls inside one
 * block share the machine's state at that moment; resampling single calls would understate the
 * uncertainty. Fixed seed: the same data gives the same interval.
 */
export function blockBootstrap<B>(blocks: readonly B[], stat: (sample: readonly B[]) => number, opts: BootstrapOptions = {}): Interval {
  if (blocks.length < 2) return { lo: NaN, hi: NaN };
  const rand = prng(opts.seed ?? BOOTSTRAP_SEED);
  const n = opts.resamples ?? BOOTSTRAP_RESAMPLES;
  const values: number[] = [];
  const sample = new Array<B>(blocks.length);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < blocks.length; i++) sample[i] = blocks[Math.floor(rand() * blocks.length)];
    const v = stat(sample);
    if (Number.isFinite(v)) values.push(v);
  }
  if (values.length < n * 0.9) return { lo: NaN, hi: NaN };
  return { lo: percentile(values, 2.5), hi: percentile(values, 97.5) };
}

type Values = ArrayLike<number> | number;

/** Every value `pick` gives for each block (a number, an array, or a list of those), in one array. */
export function pooled<B>(blocks: readonly B[], pick: (block: B) => Values | readonly Values[]): Float64Array {
  const parts: Values[] = [];
  let n = 0;
  for (const b of blocks) {
    const v = pick(b);
    const list = Array.isArray(v) && v.length > 0 && typeof v[0] !== 'number' ? (v as readonly Values[]) : [v as Values];
    for (const x of list) {
      parts.push(x);
      n += typeof x === 'number' ? 1 : x.length;
    }
  }
  const out = new Float64Array(n);
  let i = 0;
  for (const x of parts) {
    if (typeof x === 'number') out[i++] = x;
    else if (x instanceof Float64Array) {
      out.set(x, i);
      i += x.length;
    } else for (let j = 0; j < x.length; j++) out[i++] = x[j];
  }
  return out;
}

/** Round for display and JSON (keeps results.json readable). */
export function round(v: number, digits = 3): number {
  if (!Number.isFinite(v)) return v;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
