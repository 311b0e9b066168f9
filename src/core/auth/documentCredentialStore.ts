import { z } from 'zod';
import {
  credentialKeyOf,
  issuerKeyOf,
  type CredentialKey,
  type CredentialKind,
  type CredentialStore,
  type CredentialValues,
  type IssuerCredentialKind,
} from './credentialStore';

/**
 * A CredentialStore kept as one JSON document (a file for the CLI, one secret in the editor):
 * `{ version: 1, servers: { <server URL>: { discovery?, issuers: { <issuer>: { tokens?, client?, codeVerifier? } } } } }`.
 * Subclasses only load and save the document; every change is a read-modify-write under one
 * in-process queue, so concurrent changes from this process never lose each other.
 *
 * Issuer keys are `issuerKeyOf` forms, and every stored token set and client carries the `issuer`
 * it belongs to (the stamp the SDK compares before it sends a credential anywhere). Documents
 * written before that (keys as `https://as.example/`, values without a stamp) are migrated when
 * read: keys normalized (entries of one issuer merged), missing stamps set to their key.
 */

const issuerStamp = z.string().optional().catch(undefined);

const IssuerEntrySchema = z.object({
  tokens: z
    .object({ tokens: z.object({ access_token: z.string(), token_type: z.string(), issuer: issuerStamp }).passthrough(), obtainedAt: z.number() })
    .optional()
    .catch(undefined),
  client: z.object({ client_id: z.string(), issuer: issuerStamp }).passthrough().optional().catch(undefined),
  codeVerifier: z.string().optional().catch(undefined),
});

const ServerEntrySchema = z.object({
  discovery: z.object({ authorizationServerUrl: z.string() }).passthrough().optional().catch(undefined),
  issuers: z.record(z.string(), IssuerEntrySchema.catch({})).catch({}),
});

const DocumentSchema = z.object({
  version: z.literal(1),
  servers: z.record(z.string(), ServerEntrySchema.catch({ issuers: {} })),
});

type IssuerEntry = { -readonly [K in IssuerCredentialKind]?: CredentialValues[K] };
interface ServerEntry {
  discovery?: CredentialValues['discovery'];
  issuers: Record<string, IssuerEntry>;
}
export interface CredentialDocument {
  version: 1;
  servers: Record<string, ServerEntry>;
}

export function emptyCredentialDocument(): CredentialDocument {
  return { version: 1, servers: {} };
}

/**
 * Checks the shape of a parsed document. An entry of the wrong shape is dropped (read as absent)
 * rather than failing the whole store; a document that is not one at all is an error whose
 * message never includes the content.
 */
export function parseCredentialDocument(raw: unknown): CredentialDocument {
  const parsed = DocumentSchema.safeParse(raw);
  if (!parsed.success) throw new Error('not an MCP Host credentials document (expected {"version": 1, "servers": {...}})');
  const doc = parsed.data as CredentialDocument;
  for (const server of Object.values(doc.servers)) server.issuers = migrateIssuers(server.issuers);
  return doc;
}

/** Issuer keys in `issuerKeyOf` form (entries of one issuer merged, the first value of a kind kept), values stamped. */
function migrateIssuers(issuers: Record<string, IssuerEntry>): Record<string, IssuerEntry> {
  const out: Record<string, IssuerEntry> = {};
  for (const [key, entry] of Object.entries(issuers)) {
    const merged = (out[issuerKeyOf(key)] ??= {});
    if (entry.tokens && !merged.tokens) merged.tokens = { ...entry.tokens, tokens: { ...entry.tokens.tokens, issuer: entry.tokens.tokens.issuer ?? key } };
    if (entry.client && !merged.client) merged.client = { ...entry.client, issuer: entry.client.issuer ?? key };
    if (entry.codeVerifier !== undefined && merged.codeVerifier === undefined) merged.codeVerifier = entry.codeVerifier;
  }
  return out;
}

function isEmpty(entry: object): boolean {
  return Object.values(entry).every((v) => v === undefined);
}

export abstract class DocumentCredentialStore implements CredentialStore {
  private queue: Promise<unknown> = Promise.resolve();

  /** The current document (an empty one when nothing is stored yet). */
  protected abstract load(): Promise<CredentialDocument>;
  /** Replace the stored document. */
  protected abstract save(doc: CredentialDocument): Promise<void>;

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private update<T>(change: (doc: CredentialDocument) => { result: T; changed: boolean }): Promise<T> {
    return this.serialized(async () => {
      const doc = await this.load();
      const { result, changed } = change(doc);
      if (changed) await this.save(doc);
      return result;
    });
  }

  async get<K extends CredentialKind>(key: CredentialKey<K>, kind: K): Promise<CredentialValues[K] | undefined> {
    const doc = await this.serialized(() => this.load());
    const server = doc.servers[credentialKeyOf(key.serverUrl)];
    if (!server) return undefined;
    if (kind === 'discovery') return server.discovery as CredentialValues[K] | undefined;
    if (key.issuer === undefined) return undefined;
    return server.issuers[issuerKeyOf(key.issuer)]?.[kind as IssuerCredentialKind] as CredentialValues[K] | undefined;
  }

  set<K extends CredentialKind>(key: CredentialKey<K>, kind: K, value: CredentialValues[K]): Promise<void> {
    return this.update((doc) => {
      const serverKey = credentialKeyOf(key.serverUrl);
      const server = (doc.servers[serverKey] ??= { issuers: {} });
      if (kind === 'discovery') {
        server.discovery = value as CredentialValues['discovery'];
      } else {
        if (key.issuer === undefined) throw new Error(`credentials of kind "${kind}" need an issuer`);
        const entry = (server.issuers[issuerKeyOf(key.issuer)] ??= {});
        (entry as Record<string, unknown>)[kind] = value;
      }
      return { result: undefined, changed: true };
    });
  }

  delete(key: CredentialKey, kind: CredentialKind): Promise<void> {
    return this.update((doc) => {
      const serverKey = credentialKeyOf(key.serverUrl);
      const server = doc.servers[serverKey];
      if (!server) return { result: undefined, changed: false };
      let changed = false;
      if (kind === 'discovery') {
        changed = server.discovery !== undefined;
        delete server.discovery;
      } else if (key.issuer !== undefined) {
        const issuerKey = issuerKeyOf(key.issuer);
        const entry = server.issuers[issuerKey];
        if (entry && entry[kind] !== undefined) {
          delete entry[kind];
          if (isEmpty(entry)) delete server.issuers[issuerKey];
          changed = true;
        }
      }
      if (server.discovery === undefined && Object.keys(server.issuers).length === 0) delete doc.servers[serverKey];
      return { result: undefined, changed };
    });
  }

  async issuers(serverUrl: string): Promise<string[]> {
    const doc = await this.serialized(() => this.load());
    return Object.keys(doc.servers[credentialKeyOf(serverUrl)]?.issuers ?? {});
  }

  forget(serverUrl: string): Promise<boolean> {
    return this.update((doc) => {
      const serverKey = credentialKeyOf(serverUrl);
      if (!(serverKey in doc.servers)) return { result: false, changed: false };
      delete doc.servers[serverKey];
      return { result: true, changed: true };
    });
  }
}
