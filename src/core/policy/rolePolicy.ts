import type { RoleSettings, ServerSettings } from '../settings/hostSettings';
import { compileToolGlobs, type ToolMatcher } from './globMatcher';

/**
 * Which servers a role starts and which tools its model may see and call.
 * "Connect to all tools, hand the model only this role's": the same check runs when listing and when calling.
 */
export class RolePolicy {
  private readonly include: ToolMatcher;
  private readonly exclude: ToolMatcher;
  private readonly serverSet: ReadonlySet<string>;

  constructor(
    readonly role: RoleSettings | undefined,
    servers: readonly ServerSettings[],
  ) {
    this.include = compileToolGlobs(role ? role.tools : ['*/*']);
    this.exclude = compileToolGlobs(role ? role.exclude : []);
    const enabled = servers.filter((s) => s.enabled).map((s) => s.name);
    this.serverSet = new Set(role?.servers ? enabled.filter((s) => role.servers!.includes(s)) : enabled);
  }

  get roleName(): string | undefined {
    return this.role?.name;
  }

  /** Enabled servers this role uses, i.e. the ones to start. */
  usesServer(server: string): boolean {
    return this.serverSet.has(server);
  }

  servers(): readonly string[] {
    return [...this.serverSet];
  }

  allows(server: string, tool: string): boolean {
    if (!this.serverSet.has(server)) return false;
    return this.include(server, tool) && !this.exclude(server, tool);
  }
}
