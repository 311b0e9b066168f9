import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { StoredConsentSchema, type ConsentStore, type StoredConsent } from './consentStore';

/** `MCP_HOST_CONFIG_DIR`, else `$XDG_CONFIG_HOME/mcp-host` (absolute only), else `~/.config/mcp-host`. */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  if (env.MCP_HOST_CONFIG_DIR) return path.resolve(env.MCP_HOST_CONFIG_DIR);
  const xdg = env.XDG_CONFIG_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config'), 'mcp-host');
}

interface ConsentDocument {
  version: 1;
  /** Absolute workspace path → server name → answer. */
  workspaces: Record<string, Record<string, StoredConsent>>;
}

/** An answer that does not read is dropped (that server is asked again), not the whole file. */
const ConsentDocumentSchema = z.object({
  version: z.literal(1),
  workspaces: z.record(z.string(), z.record(z.string(), StoredConsentSchema.optional().catch(undefined)).catch({})),
});

/**
 * The CLI's consent: `<config dir>/consent.json`, one entry per workspace path and server, readable
 * by its owner only. Written whole through a temporary file; a file that does not parse counts as
 * empty (every server is asked again) and is replaced on the next answer.
 */
export class FileConsentStore implements ConsentStore {
  constructor(
    private readonly workspace: string,
    readonly file: string = path.join(userConfigDir(), 'consent.json'),
  ) {}

  async get(server: string): Promise<StoredConsent | undefined> {
    return this.load().workspaces[this.workspace]?.[server];
  }

  async set(server: string, consent: StoredConsent): Promise<void> {
    const doc = this.load();
    (doc.workspaces[this.workspace] ??= {})[server] = consent;
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(doc, null, 2) + '\n', { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }

  private load(): ConsentDocument {
    try {
      const parsed = ConsentDocumentSchema.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      if (parsed.success) {
        const workspaces: ConsentDocument['workspaces'] = {};
        for (const [ws, servers] of Object.entries(parsed.data.workspaces)) {
          const kept: Record<string, StoredConsent> = (workspaces[ws] = {});
          for (const [server, consent] of Object.entries(servers)) if (consent) kept[server] = consent;
        }
        return { version: 1, workspaces };
      }
    } catch {
      // missing or unreadable: nothing allowed yet
    }
    return { version: 1, workspaces: {} };
  }
}
