import { join } from 'node:path';
import type { AuditLog } from '../audit/auditLog';
import type { Actor } from '../audit/auditRecord';
import { consentOffer } from '../consent/consentOffer';
import { ServerConsent, type ConsentState } from '../consent/serverConsent';
import { ConnectionState } from '../mcp/connectionState';
import type { ServerFleet } from '../mcp/serverFleet';
import type { DefinitionReview } from '../pinning/definitionReview';
import { LOCKFILE_NAME } from '../pinning/lockfile';
import { FileLockfileStore, MemoryLockfileStore } from '../pinning/lockfileStore';
import type { ServerPins } from '../pinning/pinningPolicy';
import { sameIdentity, type ServerIdentity } from '../pinning/serverIdentity';
import { ToolPins } from '../pinning/toolPins';
import { errorText } from '../util/errorText';
import type { HostSettings, PinningMode, ServerSettings } from '../settings/hostSettings';
import type { ResolvedSettings } from '../settings/resolveServerSettings';
import type { Tool } from '@modelcontextprotocol/client';
import { Emitter, type Event } from '../util/event';
import type { Logger } from '../util/logger';
import type { McpHostOptions } from './mcpHostOptions';

/** What the tree, the chat and the CLI may do with the lockfile (McpHost.definitions). */
export interface DefinitionControl {
  readonly mode: PinningMode;
  readonly lockfile: { readonly location: string; readonly exists: boolean; readonly error?: string };
  /** The pending review of one server (its changed, new and removed tools), or undefined when it matches. */
  review(server: string): DefinitionReview | undefined;
  /** Write what `review(server)` showed (its token) to the lockfile; refused in "locked" mode or when the tools changed since. */
  approve(server: string, token: string, by: Actor): void;
  /** Keep the lockfile; the tools stay quarantined. Audited. */
  reject(server: string, token: string, by: Actor): void;
  /** `mcp-host lock`: write every listed server's tools; drop entries of servers no longer configured. */
  lockAll(by: Actor): DefinitionReview[];
  /** Re-read the lockfile after it changed on disk. */
  reload(): void;
  /** The servers the lockfile has an entry for. */
  lockedServers(): string[];
  /** Entries whose hash is not the hash of their definition ("server/tool"; `check --locked`). */
  inconsistentEntries(): string[];
  /** A person allowed a server with "review the definitions first" and it has listed them: open the review of that server. */
  readonly onDidRequestReview: Event<string>;
}

/** The lockfile's pins and the consent gate of one host, built from its options. */
export class HostTrust {
  readonly pins: ToolPins;
  readonly consent?: ServerConsent;
  readonly definitions: DefinitionControl;
  private readonly _onDidChange = new Emitter<void>();
  /** Quarantines, reviews or consent states changed. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidRequestReview = new Emitter<string>();
  /** Servers allowed with "review first" whose review is not asked for yet. */
  private readonly reviewWhenListed = new Set<string>();
  /** Servers allowed with "approve what it lists": by whom, and how they were to start (lockfile form). */
  private readonly approveWhenListed = new Map<string, { by: Actor; identity?: ServerIdentity }>();

  constructor(o: McpHostOptions, audit: AuditLog, private readonly logger: Logger, fleet: () => ServerFleet, settings: () => HostSettings) {
    const store = o.lockfile ?? (o.workspaceFolder ? new FileLockfileStore(join(o.workspaceFolder, LOCKFILE_NAME)) : new MemoryLockfileStore());
    const serverInfo = (s: string) => infoOf(fleet().get(s)?.state);
    const pins = (this.pins = new ToolPins(o.settings.pinning, { store, audit, logger, workspaceFolder: o.workspaceFolder, serverInfo }));
    pins.onDidChange(() => this._onDidChange.fire());
    if (o.consent) {
      // --yes and --allow-servers answer the consent question alike; only --yes reaches the router.
      const definitions = {
        offer: (server: string) => consentOffer(pins.consentInput(server)),
        allowed: (server: string, choice: 'approve' | 'review', by: Actor) => {
          if (choice === 'approve') this.approveWhenListed.set(server, { by, identity: pins.consentInput(server).identity });
          else this.reviewWhenListed.add(server);
        },
      };
      this.consent = new ServerConsent({ ...o.consent, audit, logger, assumeYes: o.assumeYes || o.allowServers, definitions });
      this.consent.onDidChange(() => this._onDidChange.fire());
    }
    const servers = () => ({ names: fleet().all().map((c) => c.name), configured: settings().servers.map((s) => s.name) });
    this.definitions = {
      get mode() {
        return pins.pinningMode;
      },
      get lockfile() {
        return pins.lockfile;
      },
      review: (server) => pins.review(server),
      approve: (server, token, by) => pins.approve(server, token, by),
      reject: (server, token, by) => pins.reject(server, token, by),
      lockAll: (by) => pins.lockAll(servers().names, servers().configured, by),
      reload: () => pins.reload(),
      lockedServers: () => pins.lockedServers(),
      inconsistentEntries: () => pins.inconsistentEntries(),
      onDidRequestReview: this._onDidRequestReview.event,
    };
  }

  /** The fleet's admission of a server about to start: remember how it runs, then ask for consent. */
  admit(settings: ServerSettings, resolved: ResolvedSettings, explicit: boolean, roots?: readonly string[] | false): Promise<string | undefined> {
    this.pins.setResolved(settings.name, resolved);
    return this.consent ? this.consent.admit(settings.name, resolved, explicit, roots) : Promise.resolve(undefined);
  }

  /** A server's listed tools (undefined: none any more); before the registry hears of them. */
  setTools(server: string, tools: readonly Tool[] | undefined): void {
    this.pins.setTools(server, tools);
    if (tools && this.approveWhenListed.has(server)) this.approveFirstListing(server);
    if (tools && this.reviewWhenListed.has(server) && this.pins.review(server)) {
      this.reviewWhenListed.delete(server);
      this._onDidRequestReview.fire(server);
    }
  }

  /**
   * "Approve what it lists" at consent (trust on first use): its first listing is written to the
   * lockfile as approved by the person who answered, when the lockfile still has no entry for it and
   * it started as shown. What it lists later is held against that entry; otherwise it is held as always.
   */
  private approveFirstListing(server: string): void {
    const wish = this.approveWhenListed.get(server)!;
    this.approveWhenListed.delete(server);
    const now = this.pins.consentInput(server);
    if (now.mode !== 'review' || now.lockError !== undefined || now.entry || !wish.identity || !now.identity || !sameIdentity(wish.identity, now.identity)) return;
    const review = this.pins.review(server);
    try {
      if (review) this.pins.approve(server, review.token, wish.by, true);
    } catch (e) {
      this.logger.warn(`[${server}] could not write the definitions approved when it was allowed to start: ${errorText(e)}; they stay quarantined until reviewed`);
    }
  }

  /** What the snapshot shows of pins and consent. */
  snapshotSources(): { pins: ReadonlyMap<string, ServerPins>; consent?: ReadonlyMap<string, ConsentState> } {
    return { pins: this.pins.snapshot(), ...(this.consent ? { consent: this.consent.snapshot() } : {}) };
  }

  dispose(): void {
    this.pins.dispose();
    this.consent?.dispose();
    this._onDidChange.dispose();
    this._onDidRequestReview.dispose();
  }
}

function infoOf(state: ConnectionState | undefined) {
  return state && ConnectionState.isConnected(state) ? state.info.serverInfo : undefined;
}
