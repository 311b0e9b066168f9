import { actor } from '../audit/actor';
import type { AuditLog } from '../audit/auditLog';
import type { Actor } from '../audit/auditRecord';
import { commandLine, identityHash, serverIdentity, type ServerIdentity } from '../pinning/serverIdentity';
import type { ResolvedSettings } from '../settings/resolveServerSettings';
import { errorText } from '../util/errorText';
import { Emitter } from '../util/event';
import type { Logger } from '../util/logger';
import { allowAllChoice, type ConsentChoice, type ConsentOffer } from './consentOffer';
import type { ConsentStore, StoredConsent } from './consentStore';
import { changedVariables, MemoryIdentityKey, variableHashes, type IdentityKey } from './identityKey';

/** What a person is asked before a server starts. */
export interface ConsentRequest {
  readonly server: string;
  /** Exactly what will run: secrets masked, `${env:NAME}` as written (its value is never shown). */
  readonly identity: ServerIdentity;
  /** What was allowed before, when the command line changed since. */
  readonly previous?: ServerIdentity;
  /** The folders it will be given as roots; false: no roots are declared to it (see describeRoots). */
  readonly roots?: readonly string[] | false;
  /** What is known of its definitions before it starts (from the lockfile only). */
  readonly offer?: ConsentOffer;
  /** The answers that apply, starting ones first, "deny" last. Absent: allow / deny. */
  readonly choices?: readonly ConsentChoice[];
  /** The `${env:NAME}` of the identity whose value changed since it was allowed (by name, sorted). */
  readonly changedVariables?: readonly string[];
}

/** What changed since a server was allowed, as sentences for every UI: "the value of ${env:ARG_KEY} changed". */
export function consentChanges(r: Pick<ConsentRequest, 'changedVariables'>): string[] {
  const names = r.changedVariables ?? [];
  if (!names.length) return [];
  return [`the value of ${names.map((n) => `\${env:${n}}`).join(', ')} changed since it was allowed (the value itself is not shown)`];
}

/** `dismiss`: no answer (closed, Escape); the server does not start and is asked about again next time. */
export type ConsentAnswer = ConsentChoice | 'dismiss';

/** The port through which the core asks. A rejection is not consent: its message says why nobody could be asked. */
export interface ConsentPrompt {
  ask(request: ConsentRequest): Promise<ConsentAnswer>;
  /**
   * Several servers waiting at once, asked in one view (one answer per request, in order). Without
   * it they are asked one after another.
   */
  askAll?(requests: readonly ConsentRequest[]): Promise<readonly ConsentAnswer[]>;
}

/** What the lockfile knows of a server before it starts, and what an answer does to its definitions. */
export interface ConsentDefinitions {
  offer(server: string): { readonly offer?: ConsentOffer; readonly choices: readonly ConsentChoice[] };
  /** A person allowed the server with "approve" or "review" (before it starts). */
  allowed(server: string, choice: 'approve' | 'review', by: Actor): void;
}

/** The answers a request offers. */
export function choicesOf(r: ConsentRequest): readonly ConsentChoice[] {
  return r.choices ?? ['allow', 'deny'];
}

/** "Allow all" for several requests: each one's first starting answer. */
export function allowAll(requests: readonly ConsentRequest[]): ConsentAnswer[] {
  return requests.map((r) => allowAllChoice(choicesOf(r)));
}

export interface ServerConsentOptions {
  readonly store: ConsentStore;
  readonly prompt: ConsentPrompt;
  readonly audit: AuditLog;
  readonly logger: Logger;
  /** Where people answer: the editor or a terminal. */
  readonly via: Exclude<Actor['via'], 'flag'>;
  /** CLI `--yes` or `--allow-servers`: servers not allowed yet start without asking (audited as allowed by the flag, not kept). */
  readonly assumeYes?: boolean;
  /** What the question shows of the server's definitions; without it only allow / deny is asked. */
  readonly definitions?: ConsentDefinitions;
  /** The user's key for the hashes of `${env:}` values (default: one for this process only). */
  readonly key?: IdentityKey;
}

export type ConsentState = 'waiting' | 'refused';

/** How long servers that wait for consent are gathered before one question asks about them all. */
const GATHER_MS = 150;

/**
 * Consent before a server starts: the first time, and whenever its command line, args, working
 * directory, environment variable names (or remote URL) change, including the value of an
 * `${env:NAME}` used in them. Asks one question at a time (about every server waiting at that
 * moment); remembers allow and deny; a remembered "deny" is asked again only when a person starts
 * the server. The question shows what the lockfile knows of the server's definitions, and an
 * answer may approve them at first listing or ask for their review.
 */
export class ServerConsent {
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly states = new Map<string, ConsentState>();
  private readonly waiting: { request: ConsentRequest; resolve: (a: ConsentAnswer | { error: string }) => void }[] = [];
  private gather?: ReturnType<typeof setTimeout>;
  private asking = false;
  private readonly key: IdentityKey;

  constructor(private readonly o: ServerConsentOptions) {
    this.key = o.key ?? new MemoryIdentityKey();
  }

  /** Waiting for an answer, or refused at its last start. */
  state(server: string): ConsentState | undefined {
    return this.states.get(server);
  }

  /** Every server's state as of now (for a snapshot). */
  snapshot(): ReadonlyMap<string, ConsentState> {
    return new Map(this.states);
  }

  /**
   * Whether `server` may start with these resolved settings: undefined when it may, else why not
   * (the server's error). `explicit`: a person asked to start it, so an earlier "deny" is asked again.
   *
   * The answer is kept for the identity as shown (`${env:NAME}` as written) plus keyed hashes of
   * the values behind those variables, so a changed value is asked about again without the value
   * ever being shown or written. An answer kept by an earlier version (its identity holds the
   * values) still counts when it matches the resolved identity, and is rewritten in the new form.
   * `roots`: what the question shows of the roots it will be given.
   */
  async admit(server: string, resolved: ResolvedSettings, explicit: boolean, roots?: readonly string[] | false): Promise<string | undefined> {
    const identity = serverIdentity(resolved.shown, { secretValues: resolved.secretValues });
    const hash = identityHash(identity);
    const variables = await this.hashes(server, resolved.shownVariables);
    const stored = await this.o.store.get(server).catch((e: unknown) => {
      this.o.logger.warn(`consent: cannot read what was allowed for "${server}": ${errorText(e)}`);
      return undefined;
    });
    const sameShown = stored?.identityHash === hash;
    const legacy = !!stored && stored.variables === undefined && !sameShown && stored.identityHash === identityHash(serverIdentity(resolved.server, { secretValues: resolved.secretValues }));
    if (legacy && variables) await this.keep(server, { identityHash: hash, identity, variables, allowed: stored.allowed, at: stored.at });
    // Without the key the values cannot be compared: every variable counts as changed (asked again).
    const changed = sameShown ? changedVariables(stored.variables ?? {}, variables ?? Object.fromEntries(Object.keys(resolved.shownVariables).map((n) => [n, '']))) : [];
    const same = legacy || (sameShown && changed.length === 0);
    const drift = consentChanges({ changedVariables: changed });
    if (same && stored.allowed) return this.set(server, undefined);
    if (same && !explicit) {
      return this.set(server, 'refused', `not started: you did not allow this server to start (${stored.at.slice(0, 10)}): ${commandLine(identity)}. Start it to be asked again.`);
    }
    const kept = (allowed: boolean): StoredConsent => ({ identityHash: hash, identity, ...(variables ? { variables } : {}), allowed, at: new Date().toISOString() });
    if (this.o.assumeYes) {
      for (const d of drift) this.o.logger.warn(`[${server}] ${d}; started because of --yes`);
      this.record(server, identity, 'allow', actor('flag'), false);
      return this.set(server, undefined);
    }
    // An earlier version's identity may hold the values of `${env:}`: not shown when this one uses any.
    const previous = stored && !sameShown && !legacy && (stored.variables !== undefined || !Object.keys(resolved.shownVariables).length) ? stored.identity : undefined;
    const known = this.o.definitions?.offer(server);
    const request: ConsentRequest = {
      server,
      identity,
      ...(previous ? { previous } : {}),
      ...(changed.length ? { changedVariables: changed } : {}),
      ...(roots !== undefined ? { roots } : {}),
      ...(known?.offer ? { offer: known.offer } : {}),
      ...(known ? { choices: known.choices } : {}),
    };
    const answer = await this.ask(request);
    if (typeof answer !== 'string' || answer === 'dismiss' || answer === 'deny') {
      const remembered = answer === 'deny';
      if (typeof answer === 'string') this.record(server, identity, 'deny', actor(this.o.via), remembered);
      if (remembered) await this.keep(server, kept(false));
      const why = typeof answer === 'string' ? (remembered ? 'you did not allow this server to start' : 'the question was dismissed') : answer.error;
      return this.set(server, 'refused', `not started: ${why}: ${commandLine(identity)}${drift.map((d) => ` (${d})`).join('')}`);
    }
    const by = actor(this.o.via);
    this.record(server, identity, 'allow', by, true);
    await this.keep(server, kept(true));
    // An answer the question did not offer starts the server without touching its definitions.
    if ((answer === 'approve' || answer === 'review') && choicesOf(request).includes(answer)) this.o.definitions?.allowed(server, answer, by);
    return this.set(server, undefined);
  }

  /** Keyed hashes of the values behind `${env:}`; undefined when the key cannot be had (said on the log). */
  private async hashes(server: string, values: Readonly<Record<string, string>>): Promise<Record<string, string> | undefined> {
    if (Object.keys(values).length === 0) return {};
    try {
      return variableHashes(await this.key.get(), values);
    } catch (e) {
      this.o.logger.warn(`consent: cannot check the \${env:} values of "${server}" (${errorText(e)}); it is asked about at every start`);
      return undefined;
    }
  }

  dispose(): void {
    clearTimeout(this.gather);
    for (const w of this.waiting.splice(0)) w.resolve({ error: 'the host was closed' });
    this._onDidChange.dispose();
  }

  /**
   * One question at a time. Servers that wait at the same moment (a start-up, a role switch) are
   * gathered for a short while and asked together; those arriving while a question is open are
   * asked after it. A server shows "waiting for consent" while its question is shown.
   */
  private ask(request: ConsentRequest): Promise<ConsentAnswer | { error: string }> {
    return new Promise((resolve) => {
      this.waiting.push({ request, resolve });
      if (this.asking) return;
      clearTimeout(this.gather);
      this.gather = setTimeout(() => void this.askWaiting(), GATHER_MS);
    });
  }

  private async askWaiting(): Promise<void> {
    const batch = this.waiting.splice(0);
    if (batch.length === 0) return;
    this.asking = true;
    try {
      const requests = batch.map((b) => b.request);
      if (requests.length > 1 && this.o.prompt.askAll) {
        for (const r of requests) this.set(r.server, 'waiting');
        const answers = await this.attempt(requests.map((r) => r.server), () => this.o.prompt.askAll!(requests));
        batch.forEach((b, i) => b.resolve('error' in answers ? answers : answers[i]));
      } else {
        for (const b of batch) {
          this.set(b.request.server, 'waiting');
          b.resolve(await this.attempt([b.request.server], () => this.o.prompt.ask(b.request)));
        }
      }
    } finally {
      this.asking = false;
      if (this.waiting.length) void this.askWaiting();
    }
  }

  /** The prompt's answer, or why nobody could be asked (never consent). */
  private async attempt<T>(servers: readonly string[], asking: () => Promise<T>): Promise<T | { error: string }> {
    try {
      const answer = await asking();
      if (Array.isArray(answer) && answer.length !== servers.length) throw new Error(`${answer.length} answers for ${servers.length} servers`);
      return answer;
    } catch (e) {
      const error = errorText(e);
      this.o.logger.warn(`[${servers.join(', ')}] could not ask whether ${servers.length === 1 ? 'it' : 'they'} may start: ${error}`);
      return { error };
    }
  }

  private async keep(server: string, consent: StoredConsent): Promise<void> {
    await this.o.store.set(server, consent).catch((e: unknown) => this.o.logger.warn(`consent: cannot keep the answer for "${server}": ${errorText(e)}`));
  }

  private record(server: string, identity: ServerIdentity, decision: 'allow' | 'deny', by: Actor, remembered: boolean): void {
    void this.o.audit.record({ kind: 'consent', ts: new Date().toISOString(), server, decision, by, remembered, target: commandLine(identity), identityHash: identityHash(identity) });
  }

  private set(server: string, state: ConsentState | undefined, refusal?: string): string | undefined {
    if (this.states.get(server) !== state) {
      if (state) this.states.set(server, state);
      else this.states.delete(server);
      this._onDidChange.fire();
    }
    return refusal;
  }
}
