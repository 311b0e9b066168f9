import { actor } from '../audit/actor';
import type { AuditLog } from '../audit/auditLog';
import type { Actor } from '../audit/auditRecord';
import { commandLine, identityHash, serverIdentity, type ServerIdentity } from '../pinning/serverIdentity';
import type { ServerSettings } from '../settings/hostSettings';
import { errorText } from '../util/errorText';
import { Emitter } from '../util/event';
import type { Logger } from '../util/logger';
import type { ConsentStore, StoredConsent } from './consentStore';

/** What a person is asked before a server starts. */
export interface ConsentRequest {
  readonly server: string;
  /** Exactly what will run (secrets masked). */
  readonly identity: ServerIdentity;
  /** What was allowed before, when the command line changed since. */
  readonly previous?: ServerIdentity;
  /** The folders it will be given as roots; false: no roots are declared to it (see describeRoots). */
  readonly roots?: readonly string[] | false;
}

/** `dismiss`: no answer (closed, Escape); the server does not start and is asked about again next time. */
export type ConsentAnswer = 'allow' | 'deny' | 'dismiss';

/** The port through which the core asks. A rejection is not consent: its message says why nobody could be asked. */
export interface ConsentPrompt {
  ask(request: ConsentRequest): Promise<ConsentAnswer>;
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
}

export type ConsentState = 'waiting' | 'refused';

/**
 * Consent before a server starts: the first time, and whenever its resolved command line, args,
 * working directory, environment variable names (or remote URL) change. Asks one question at a
 * time; remembers allow and deny; a remembered "deny" is asked again only when a person starts
 * the server.
 */
export class ServerConsent {
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly states = new Map<string, ConsentState>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: ServerConsentOptions) {}

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
   * `roots`: what the question shows of the roots it will be given.
   */
  async admit(server: string, resolved: ServerSettings, secretValues: readonly string[], explicit: boolean, roots?: readonly string[] | false): Promise<string | undefined> {
    const identity = serverIdentity(resolved, { secretValues });
    const hash = identityHash(identity);
    const stored = await this.o.store.get(server).catch((e: unknown) => {
      this.o.logger.warn(`consent: cannot read what was allowed for "${server}": ${errorText(e)}`);
      return undefined;
    });
    const same = stored?.identityHash === hash;
    if (same && stored.allowed) return this.set(server, undefined);
    if (same && !explicit) {
      return this.set(server, 'refused', `not started: you did not allow this server to start (${stored.at.slice(0, 10)}): ${commandLine(identity)}. Start it to be asked again.`);
    }
    if (this.o.assumeYes) {
      this.record(server, identity, 'allow', actor('flag'), false);
      return this.set(server, undefined);
    }
    const answer = await this.ask({ server, identity, ...(stored && !same ? { previous: stored.identity } : {}), ...(roots !== undefined ? { roots } : {}) });
    if (typeof answer !== 'string' || answer === 'dismiss' || answer === 'deny') {
      const remembered = answer === 'deny';
      if (typeof answer === 'string') this.record(server, identity, 'deny', actor(this.o.via), remembered);
      if (remembered) await this.keep(server, { identityHash: hash, identity, allowed: false, at: new Date().toISOString() });
      const why = typeof answer === 'string' ? (remembered ? 'you did not allow this server to start' : 'the question was dismissed') : answer.error;
      return this.set(server, 'refused', `not started: ${why}: ${commandLine(identity)}`);
    }
    this.record(server, identity, 'allow', actor(this.o.via), true);
    await this.keep(server, { identityHash: hash, identity, allowed: true, at: new Date().toISOString() });
    return this.set(server, undefined);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  /** One question at a time; the server shows "waiting for consent" meanwhile. */
  private ask(request: ConsentRequest): Promise<ConsentAnswer | { error: string }> {
    const run = async (): Promise<ConsentAnswer | { error: string }> => {
      this.set(request.server, 'waiting');
      try {
        return await this.o.prompt.ask(request);
      } catch (e) {
        const error = errorText(e);
        this.o.logger.warn(`[${request.server}] could not ask whether it may start: ${error}`);
        return { error };
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
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
