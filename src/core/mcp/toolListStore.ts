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

/** A server's tool list as the host checked it, and until when the server allowed it to be used again. */
export interface KeptToolList {
  /** The tools as checked and redacted when listed (or only those of one name): read back, each is checked again like a listing. */
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
  /** The kept list while fresh: whole, or with `tool` only the entries of that name (what a one-shot call reads). */
  get(server: ServerSettings, tool?: string): Promise<KeptToolList | undefined>;
  set(server: ServerSettings, list: KeptToolList): Promise<void>;
  delete(server: ServerSettings): Promise<void>;
}

const HeaderSchema = z.object({
  version: z.literal(2),
  storedAt: z.number().finite(),
  expiresAt: z.number().finite(),
  problems: z.array(z.object({ tool: z.string(), message: z.string(), loaded: z.boolean() })),
});
type Header = z.infer<typeof HeaderSchema>;

/** One tool line: `[name, tool]`, the name written by JSON.stringify first, so a line can be found by its start. */
const EntrySchema = z.tuple([z.string(), z.unknown()]);

/** A kept file does not hold together: it is removed and the server listed as usual. */
class BrokenFile extends Error {}

/**
 * The CLI's kept lists: one file per server in `dir`, named by HMAC-SHA256 of the resolved server
 * under the user's identity key (identityKey.ts: a plain hash of settings would let anyone who reads
 * the folder check a guessed API key), readable by its owner only, written whole through a
 * temporary file. A file that does not parse, was stored for longer than MAX_CACHE_TTL_MS, claims
 * to be stored in the future or has run out is not used, and removed; anything unreadable only
 * means the server is listed as usual.
 *
 * The file is JSON Lines: a header (times, problems), then one `[name, tool]` line per tool. A
 * one-shot call needs one tool of a list that may hold 20,000 (6 MB): it finds the lines that start
 * with its name (linesNamed) and parses only those, where reading the whole list (wholeList, the
 * plain version; the bench's "kept" row prices the difference) parses them all.
 */
export class FileToolListStore implements ToolListStore {
  constructor(
    readonly dir: string,
    private readonly key: IdentityKey,
    private readonly now: () => number = Date.now,
  ) {}

  async get(server: ServerSettings, tool?: string): Promise<KeptToolList | undefined> {
    const file = await this.fileOf(server);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      return undefined;
    }
    try {
      const header = this.freshHeader(bytes);
      const tools = tool === undefined ? wholeList(bytes) : linesNamed(bytes, tool);
      return { tools, problems: header.problems, expiresAt: header.expiresAt };
    } catch (e) {
      if (!(e instanceof BrokenFile)) throw e;
      fs.rmSync(file, { force: true });
      return undefined;
    }
  }

  async set(server: ServerSettings, list: KeptToolList): Promise<void> {
    const file = await this.fileOf(server);
    const storedAt = this.now();
    const header: Header = { version: 2, storedAt, expiresAt: Math.min(list.expiresAt, storedAt + MAX_CACHE_TTL_MS), problems: [...list.problems] };
    const lines = [JSON.stringify(header)];
    for (const t of list.tools) {
      const name = (t as { name?: unknown }).name;
      if (typeof name === 'string') lines.push(JSON.stringify([name, t]));
    }
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, lines.join('\n') + '\n', { mode: 0o600 });
    fs.renameSync(tmp, file);
  }

  async delete(server: ServerSettings): Promise<void> {
    fs.rmSync(await this.fileOf(server), { force: true });
  }

  /** The header, when the file is a kept list that may still be used; BrokenFile otherwise. */
  private freshHeader(bytes: Buffer): Header {
    const end = bytes.indexOf(NEWLINE);
    const parsed = HeaderSchema.safeParse(parseJson(bytes.toString('utf8', 0, end < 0 ? bytes.length : end)));
    const now = this.now();
    if (!parsed.success) throw new BrokenFile('not a kept tool list');
    const h = parsed.data;
    if (h.expiresAt <= now || h.storedAt > now || h.expiresAt - h.storedAt > MAX_CACHE_TTL_MS) throw new BrokenFile('expired');
    return h;
  }

  private async fileOf(server: ServerSettings): Promise<string> {
    const name = createHmac('sha256', await this.key.get())
      .update(canonicalJson(server))
      .digest('hex');
    return path.join(this.dir, `${name}.json`);
  }
}

const NEWLINE = 0x0a;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BrokenFile('not JSON');
  }
}

function entryOf(line: string, name?: string): unknown {
  const parsed = EntrySchema.safeParse(parseJson(line));
  if (!parsed.success || (name !== undefined && parsed.data[0] !== name)) throw new BrokenFile('not a tool line');
  return parsed.data[1];
}

/** Every tool line, each parsed (the plain read). */
export function wholeList(bytes: Buffer): unknown[] {
  const lines = bytes.toString('utf8').split('\n');
  return lines
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => entryOf(l));
}

/** Only the lines of tools named `name`, found by their start (`\n["<name>",`) and parsed; the same entries as wholeList's of that name. */
export function linesNamed(bytes: Buffer, name: string): unknown[] {
  const start = Buffer.from(`\n[${JSON.stringify(name)},`);
  const out: unknown[] = [];
  for (let at = bytes.indexOf(start); at >= 0; at = bytes.indexOf(start, at + 1)) {
    const end = bytes.indexOf(NEWLINE, at + 1);
    out.push(entryOf(bytes.toString('utf8', at + 1, end < 0 ? bytes.length : end), name));
  }
  return out;
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
