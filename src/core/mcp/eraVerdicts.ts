import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DiscoverResult, PriorDiscovery, VersionNegotiationMode } from '@modelcontextprotocol/client';
import { DiscoverResultSchema } from '@modelcontextprotocol/core';
import { z } from 'zod';
import type { ProtocolSetting } from '../settings/hostSettings';
import { MAX_CACHE_TTL_MS } from './responseCache';

/** `legacy`: the 2025-11-25 handshake (`initialize`); `modern`: 2026-07-28 (`server/discover`). */
export type ProtocolEra = 'legacy' | 'modern';

/** The verdicts' file name in the CLI's configuration folder (next to consent.json). */
export const ERA_VERDICTS_FILE = 'protocol-eras.json';

/** A cached legacy verdict is used this long, then the server is probed again (an upgraded server still answers `initialize`). */
export const LEGACY_VERDICT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** What the probe found for one server identity, and when. */
export interface EraVerdict {
  readonly era: ProtocolEra;
  /** The server's `server/discover` answer (modern): adopted as is on the next connect, with no round trip. */
  readonly discover?: DiscoverResult;
  /** ISO time of the probe. */
  readonly at: string;
}

const EraVerdictSchema = z
  .object({
    era: z.enum(['legacy', 'modern']),
    discover: z.custom<DiscoverResult>((v) => DiscoverResultSchema.safeParse(v).success, { message: 'not a server/discover result' }).optional(),
    at: z.iso.datetime(),
  })
  .refine((v) => (v.era === 'modern') === (v.discover !== undefined), { message: 'a modern verdict carries its discover result, a legacy one none' });

const EraDocumentSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), z.unknown()) });

/**
 * The era verdicts per server identity (the hash the consent keeps: identityHash). The editor keeps
 * them for its process; the CLI, which starts a fresh process per command, in a file.
 */
export interface EraVerdictStore {
  get(identity: string): Promise<EraVerdict | undefined>;
  set(identity: string, verdict: EraVerdict): Promise<void>;
  delete(identity: string): Promise<void>;
}

export class MemoryEraVerdictStore implements EraVerdictStore {
  readonly entries = new Map<string, EraVerdict>();
  async get(identity: string): Promise<EraVerdict | undefined> {
    return this.entries.get(identity);
  }
  async set(identity: string, verdict: EraVerdict): Promise<void> {
    this.entries.set(identity, verdict);
  }
  async delete(identity: string): Promise<void> {
    this.entries.delete(identity);
  }
}

/**
 * The CLI's verdicts: `<config dir>/protocol-eras.json` (next to consent.json), readable by its
 * owner only, written whole through a temporary file. An entry that does not validate is ignored
 * (the server is probed again and the entry replaced); a file that does not parse counts as empty.
 */
export class FileEraVerdictStore implements EraVerdictStore {
  constructor(readonly file: string) {}

  async get(identity: string): Promise<EraVerdict | undefined> {
    const parsed = EraVerdictSchema.safeParse(this.load()[identity]);
    return parsed.success ? parsed.data : undefined;
  }

  async set(identity: string, verdict: EraVerdict): Promise<void> {
    this.write({ ...this.load(), [identity]: verdict });
  }

  async delete(identity: string): Promise<void> {
    const servers = this.load();
    if (!(identity in servers)) return;
    delete servers[identity];
    this.write(servers);
  }

  private load(): Record<string, unknown> {
    try {
      const parsed = EraDocumentSchema.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      if (parsed.success) return { ...parsed.data.servers };
    } catch {
      // missing or unreadable: no verdict yet
    }
    return {};
  }

  private write(servers: Record<string, unknown>): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ version: 1, servers }, null, 2) + '\n', { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }
}

/** The SDK's negotiation mode for a server's `protocol` setting. */
export function negotiationMode(protocol: ProtocolSetting | undefined): VersionNegotiationMode {
  if (protocol === '2025-11-25') return 'legacy';
  if (protocol === '2026-07-28') return { pin: '2026-07-28' };
  return 'auto';
}

/**
 * The cached verdict as the SDK's `prior`: a legacy one for LEGACY_VERDICT_MAX_AGE_MS (it saves the
 * probe's failed `server/discover`); a modern one only while its discover result is fresh — the
 * server's own `ttlMs` on it, capped at MAX_CACHE_TTL_MS — since adopting it skips `server/discover`
 * and the server's capabilities come from it. After that the server is probed: one `server/discover`,
 * which a modern server answers at once (the SDK's default `ttlMs` is 0: probe every time).
 */
export function priorOf(verdict: EraVerdict | undefined, now = Date.now()): PriorDiscovery | undefined {
  if (!verdict) return undefined;
  const age = now - Date.parse(verdict.at);
  if (verdict.era === 'modern') {
    const ttlMs = verdict.discover?.ttlMs;
    const ttl = Math.min(typeof ttlMs === 'number' && Number.isFinite(ttlMs) ? ttlMs : 0, MAX_CACHE_TTL_MS);
    return verdict.discover && age >= 0 && age < ttl ? { kind: 'modern', discover: verdict.discover } : undefined;
  }
  return age <= LEGACY_VERDICT_MAX_AGE_MS ? { kind: 'legacy' } : undefined;
}

/** The era of a negotiated protocol version ('2026-07-28' and later are modern). */
export function eraOf(protocolVersion: string | undefined): ProtocolEra | undefined {
  if (!protocolVersion) return undefined;
  return protocolVersion >= '2026-07-28' ? 'modern' : 'legacy';
}
