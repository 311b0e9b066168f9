import { createHmac } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { IdentityKey } from '../consent/identityKey';
import type { ServerSettings } from '../settings/hostSettings';
import type { ToolDefinitionProblem } from './checkToolDefinitions';
import type { CacheHint } from './listAllTools';
import { canonicalJson } from '../tools/definitionHash';
import { MAX_CACHE_TTL_MS } from './responseCache';

/** The folder of kept tool lists in the CLI's configuration folder (next to consent.json). */
export const TOOL_LISTS_DIR = 'tool-lists';

/** A server's whole tool list as the host checked it, and until when the server allowed it to be used again. */
export interface KeptToolList {
  /** The tools as checked and redacted when listed: read back, each is checked again like a listing. */
  readonly tools: readonly unknown[];
  /** What was wrong with the listed entries (tools left out, parts dropped). */
  readonly problems: readonly ToolDefinitionProblem[];
  /** Epoch ms: the list is not used at or after this time. */
  readonly expiresAt: number;
}

/**
 * Tool lists a 2026-07-28 server allowed to be used again (`ttlMs`), kept across processes: the CLI
 * starts a fresh process per command, so without this a one-shot `call` could never skip discovery.
 * Keyed by the server exactly as started — every resolved value, `env` and `headers` included — so a
 * list never crosses two configurations or two sets of credentials. The key is keyed-hashed.
 */
export interface ToolListStore {
  get(server: ServerSettings): Promise<KeptToolList | undefined>;
  set(server: ServerSettings, list: KeptToolList): Promise<void>;
  delete(server: ServerSettings): Promise<void>;
}

const KeptFileSchema = z.object({
  version: z.literal(1),
  storedAt: z.number().finite(),
  expiresAt: z.number().finite(),
  tools: z.array(z.unknown()),
  problems: z.array(z.object({ tool: z.string(), message: z.string(), loaded: z.boolean() })),
});

/**
 * The CLI's kept lists: one file per server in `dir`, named by HMAC-SHA256 of the resolved server
 * under the user's identity key (identityKey.ts: a plain hash of settings would let anyone who reads
 * the folder check a guessed API key), readable by its owner only, written whole through a
 * temporary file. A file that does not parse, was stored for longer than MAX_CACHE_TTL_MS, claims
 * to be stored in the future or has run out is not used (and an expired or broken one is removed);
 * anything unreadable only means the server is listed as usual.
 */
export class FileToolListStore implements ToolListStore {
  constructor(
    readonly dir: string,
    private readonly key: IdentityKey,
    private readonly now: () => number = Date.now,
  ) {}

  async get(server: ServerSettings): Promise<KeptToolList | undefined> {
    const file = await this.fileOf(server);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    let parsed: z.infer<typeof KeptFileSchema> | undefined;
    try {
      const r = KeptFileSchema.safeParse(JSON.parse(text));
      if (r.success) parsed = r.data;
    } catch {
      // not JSON: treated as missing below
    }
    const now = this.now();
    if (!parsed || parsed.expiresAt <= now || parsed.storedAt > now || parsed.expiresAt - parsed.storedAt > MAX_CACHE_TTL_MS) {
      fs.rmSync(file, { force: true });
      return undefined;
    }
    return { tools: parsed.tools, problems: parsed.problems, expiresAt: parsed.expiresAt };
  }

  async set(server: ServerSettings, list: KeptToolList): Promise<void> {
    const file = await this.fileOf(server);
    const storedAt = this.now();
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ version: 1, storedAt, expiresAt: Math.min(list.expiresAt, storedAt + MAX_CACHE_TTL_MS), tools: list.tools, problems: list.problems }), { mode: 0o600 });
    fs.renameSync(tmp, file);
  }

  async delete(server: ServerSettings): Promise<void> {
    fs.rmSync(await this.fileOf(server), { force: true });
  }

  private async fileOf(server: ServerSettings): Promise<string> {
    const name = createHmac('sha256', await this.key.get())
      .update(canonicalJson(server))
      .digest('hex');
    return path.join(this.dir, `${name}.json`);
  }
}

/**
 * Whether a whole list may be kept across processes: the server allowed it to be used again
 * (`ttlMs` > 0), and every credential that reaches the server is in the key. A stdio server's are
 * all in its settings; an HTTP server may be reached with OAuth tokens the settings do not hold, so
 * its list is kept only when the server declared it `public` (a missing `cacheScope` means private).
 */
export function keepsAcrossProcesses(server: ServerSettings, hint: CacheHint): boolean {
  return hint.ttlMs !== undefined && hint.ttlMs > 0 && (server.type === 'stdio' || hint.cacheScope === 'public');
}
