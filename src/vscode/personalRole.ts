import { isPlainObject } from '../core/settings/isPlainObject';

/** The part of `vscode.Memento` the choice needs (a plain map in tests). */
export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = 'mcpHost.personalRole';

/**
 * A person's role choice: the role (null = no role) and the team's default it was chosen over
 * (null = none). A later change of the team's default takes over from the choice.
 */
export interface RoleChoice {
  readonly role: string | null;
  readonly over: string | null;
}

const nameOrNull = (v: unknown): v is string | null => typeof v === 'string' || v === null;

/**
 * The role a person picked in the editor, kept per user and workspace (`ExtensionContext.workspaceState`),
 * never in the repository: `mcpHost.activeRole` in the workspace settings stays the team's default,
 * which the CLI reads too. Nothing stored: the team's default applies.
 */
export class PersonalRole {
  constructor(private readonly state: MementoLike) {}

  /** The stored choice, if any (a value of another shape counts as none). */
  get(): RoleChoice | undefined {
    const v = this.state.get<unknown>(KEY);
    if (!isPlainObject(v) || !nameOrNull(v.role) || !nameOrNull(v.over)) return undefined;
    return { role: v.role, over: v.over };
  }

  /** Keep `role` (undefined = no role) as the person's choice; choosing the team's default forgets the choice. */
  async set(role: string | undefined, teamDefault: string | undefined): Promise<void> {
    const choice: RoleChoice = { role: role ?? null, over: teamDefault ?? null };
    await this.state.update(KEY, role === teamDefault ? undefined : choice);
  }

  /** Forget the choice: the team's default applies again. */
  async clear(): Promise<void> {
    await this.state.update(KEY, undefined);
  }
}

/** Where the active role comes from, for the status bar and the role picker. */
export interface RoleSource {
  /** `mcpHost.activeRole` of the settings (undefined = no role). */
  readonly teamDefault: string | undefined;
  /** Whether the person's own choice, different from the team's default, is in effect. */
  readonly personal: boolean;
}

/**
 * The raw `mcpHost.*` settings with the person's role in place of `activeRole`, when that role is
 * still configured and the team's default is still the one it was chosen over (a role the team
 * removed, or a new default, takes over: the team's default applies).
 */
export function withPersonalRole(
  raw: Record<string, unknown>,
  choice: RoleChoice | undefined,
): { readonly raw: Record<string, unknown>; readonly source: RoleSource } {
  // A team setting that is not a role name stays as it is, so its problem is reported (and no role applies).
  if (raw.activeRole !== undefined && typeof raw.activeRole !== 'string') return { raw, source: { teamDefault: undefined, personal: false } };
  const teamDefault = raw.activeRole === '' ? undefined : raw.activeRole;
  const applies =
    choice !== undefined &&
    (choice.over ?? undefined) === teamDefault &&
    (choice.role === null || (isPlainObject(raw.roles) && Object.hasOwn(raw.roles, choice.role)));
  if (!applies || (choice.role ?? undefined) === teamDefault) return { raw, source: { teamDefault, personal: false } };
  return { raw: { ...raw, activeRole: choice.role ?? '' }, source: { teamDefault, personal: true } };
}
