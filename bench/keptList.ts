/**
 * The kept tool list's lookup (src/core/mcp/toolListStore.ts): a one-shot `call` to a 2026-07-28
 * server reads one tool of the list a call before it kept — here 20,000 tools, 6 MB — by finding the
 * lines that start with its name and parsing those (`get(server, tool)`, the host side), where the
 * plain version parses every line and keeps that name's (`get(server)` and a filter, raw A and raw B:
 * the A/A pair). Same file, same store, in this process; each side once per round, shuffled. The row
 * is what justifies the hand-written lookup (test/unit/core/mcp/toolListStore.test.ts checks it
 * against the plain read).
 */
import { join } from 'node:path';
import { MemoryIdentityKey } from '../src/core/consent/identityKey';
import { FileToolListStore } from '../src/core/mcp/toolListStore';
import type { ServerSettings } from '../src/core/settings/hostSettings';
import { compare, fmtMs, makeTempDir, ratioRow, rotate, type BenchResult } from './common';
import { getGc } from './registryScale';
import { generateTools } from './toolGenerator';

export interface KeptListOptions {
  readonly tools: number;
  readonly blocks: number;
  readonly rounds: number;
  readonly target: number;
  readonly seed: number;
}

export const KEPT_LIST_DEFAULTS: KeptListOptions = { tools: 20_000, blocks: 15, rounds: 4, target: 0.5, seed: 11 };

export async function keptList(opts: KeptListOptions = KEPT_LIST_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('kept');
  try {
    const gc = getGc();
    const store = new FileToolListStore(join(tmp.dir, 'tool-lists'), new MemoryIdentityKey());
    const server = { name: 'many', type: 'stdio', command: 'node', args: ['many.mjs'], env: {}, enabled: true } as unknown as ServerSettings;
    const tools = generateTools(0, opts.tools);
    const name = tools[Math.floor(opts.tools / 2)].name;
    await store.set(server, { tools, problems: [], expiresAt: Date.now() + 10 * 60_000 });
    const timed = (read: () => Promise<unknown[]>) => async () => {
      gc();
      const t0 = performance.now();
      const found = await read();
      const ms = performance.now() - t0;
      if (found.length !== 1) throw new Error(`expected one tool named ${name}, found ${found.length}`);
      return ms;
    };
    const plain = timed(async () => ((await store.get(server))?.tools ?? []).filter((t) => (t as { name?: string }).name === name));
    const lookup = timed(async () => [...((await store.get(server, name))?.tools ?? [])]);
    await plain();
    await lookup();
    const { blocks } = await rotate({ rawA: plain, rawB: plain, host: lookup }, { blocks: opts.blocks, rounds: opts.rounds, seed: opts.seed });
    const c = compare(blocks, (ms) => ms);
    return {
      rows: [
        ratioRow(
          'keptList.lookup',
          `Kept tool list, one tool of ${opts.tools.toLocaleString('en-US')}: lookup by the line's start ÷ parsing every line (the plain read)`,
          c,
          opts.target,
          `lookup ${fmtMs(c.host)} vs plain ${fmtMs(c.raw)} (A ${fmtMs(c.rawA)}, B ${fmtMs(c.rawB)}), median of ${opts.blocks} blocks × ${opts.rounds} reads per side, each after a full GC`,
        ),
      ],
      data: { options: opts, blocks },
    };
  } finally {
    tmp.remove();
  }
}
