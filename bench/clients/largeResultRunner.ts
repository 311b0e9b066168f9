/**
 * One side of the large-result row, in a process of its own (so its peak RSS is its own and a host
 * that dies on a large message does not take the benchmark with it). Forked by largeResult.ts with
 * an IPC channel and `--expose-gc --require bench/register.cjs`:
 *   largeResultRunner.ts host|raw
 * host: the host under test with bench/servers/largeText.mjs (audit file on); raw: the SDK's Client
 * over StdioClientTransport with LinearReadBuffer (see linearReadBuffer.ts) to the same server.
 * Messages: parent → {bytes} ; child → {ready} once connected, then per call {ms, rssBefore, peak, chars}
 * or {error}; {fatal} (then exit 1) on an uncaught exception.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectRaw, errorText, makeTempDir, procMemory, serverSpec } from '../common';
import { createHostUnderTest } from '../hostUnderTest';

const RAW_MAX_MESSAGE_BYTES = 512 * 1024 * 1024;

type Caller = { call(bytes: number): Promise<number>; close(): Promise<void> };

function send(message: Record<string, unknown>): void {
  process.send?.(message);
}

process.on('uncaughtException', (e) => {
  send({ fatal: errorText(e) });
  setTimeout(() => process.exit(1), 100);
});

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** Resets VmHWM (peak RSS) to the current RSS (Linux ≥ 4.0). */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

async function connect(side: string, tmpDir: string): Promise<Caller> {
  if (side === 'host') {
    const host = createHostUnderTest([serverSpec('large', 'largeText')], { autoApprove: ['large/*'], auditPath: join(tmpDir, 'audit.jsonl'), timeoutMs: 120_000 });
    await host.start();
    host.approveDefinitions();
    if (!host.toolNames().includes('large__text')) throw new Error(`host has no tool large__text: ${host.toolNames().join(', ')}`);
    return {
      call: async (bytes) => {
        const r = await host.call('large__text', { bytes });
        if (r.outcome !== 'ok') throw new Error(`outcome ${r.outcome}: ${r.modelText.slice(0, 300)}`);
        return (r.content[0] as { text?: string } | undefined)?.text?.length ?? 0;
      },
      close: () => host.close(),
    };
  }
  const raw = await connectRaw('largeText', { linearReaderMaxBytes: RAW_MAX_MESSAGE_BYTES });
  return {
    call: async (bytes) => {
      const r = await raw.client.callTool({ name: 'text', arguments: { bytes } }, undefined, { timeout: 120_000 });
      if (r.isError) throw new Error('isError');
      return (r.content as { text?: string }[])[0]?.text?.length ?? 0;
    },
    close: () => raw.close(),
  };
}

async function main(): Promise<void> {
  const side = process.argv[2];
  const tmp = makeTempDir(`large-${side}`);
  const caller = await connect(side, tmp.dir);
  let busy = Promise.resolve();
  process.on('message', (m: { bytes?: number; close?: boolean }) => {
    busy = busy.then(async () => {
      if (m.close) {
        await caller.close();
        tmp.remove();
        process.exit(0);
      }
      const bytes = m.bytes!;
      gc();
      gc();
      const peakReset = resetPeak();
      const rssBefore = procMemory('self')!.rss;
      const t0 = performance.now();
      try {
        const chars = await caller.call(bytes);
        const ms = performance.now() - t0;
        const peak = procMemory('self')!.hwm;
        send({ ms, rssBefore, peak, chars, peakReset });
      } catch (e) {
        send({ error: errorText(e) });
      }
    });
  });
  send({ ready: true });
}

main().catch((e) => {
  send({ fatal: errorText(e) });
  setTimeout(() => process.exit(1), 100);
});
