import * as assert from 'node:assert/strict';
import { PersonalRole, withPersonalRole, type MementoLike } from '../../../src/vscode/personalRole';

/** A workspace state as the editor keeps it (values by key), without the editor. */
class MapMemento implements MementoLike {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

const ROLES = { support: { servers: ['a'] }, operations: { servers: ['b'] } };

describe('the active role: the team\'s default in the settings, the person\'s choice in the workspace state', () => {
  it('without a choice the settings\' activeRole applies, unchanged', () => {
    const raw = { roles: ROLES, activeRole: 'support' };
    assert.deepEqual(withPersonalRole(raw, undefined), { raw, source: { teamDefault: 'support', personal: false } });
  });

  it('a choice replaces activeRole for this person only; the settings object is not changed', async () => {
    const state = new MapMemento();
    const personal = new PersonalRole(state);
    await personal.set('operations', 'support');
    const raw = { roles: ROLES, activeRole: 'support' };
    const r = withPersonalRole(raw, personal.get());
    assert.equal(r.raw.activeRole, 'operations');
    assert.deepEqual(r.source, { teamDefault: 'support', personal: true });
    assert.equal(raw.activeRole, 'support');
  });

  it('"no role" is a choice too ("" for the settings parser)', async () => {
    const personal = new PersonalRole(new MapMemento());
    await personal.set(undefined, 'support');
    const r = withPersonalRole({ roles: ROLES, activeRole: 'support' }, personal.get());
    assert.equal(r.raw.activeRole, '');
    assert.deepEqual(r.source, { teamDefault: 'support', personal: true });
  });

  it('choosing the team\'s default forgets the choice', async () => {
    const state = new MapMemento();
    const personal = new PersonalRole(state);
    await personal.set('operations', 'support');
    await personal.set('support', 'support');
    assert.equal(personal.get(), undefined);
    assert.equal(state.values.size, 0);
  });

  it('a role the team removed, or a new team default, takes over from the choice', async () => {
    const personal = new PersonalRole(new MapMemento());
    await personal.set('operations', 'support');
    const removed = withPersonalRole({ roles: { support: {} }, activeRole: 'support' }, personal.get());
    assert.deepEqual([removed.raw.activeRole, removed.source.personal], ['support', false]);
    const newDefault = withPersonalRole({ roles: ROLES, activeRole: 'operations' }, personal.get());
    assert.deepEqual([newDefault.raw.activeRole, newDefault.source.personal], ['operations', false]);
    const noDefault = withPersonalRole({ roles: ROLES }, personal.get());
    assert.deepEqual([noDefault.raw.activeRole, noDefault.source], [undefined, { teamDefault: undefined, personal: false }]);
  });

  it('a team setting that is not a role name is left for the parser to report; a stored value of another shape is no choice', async () => {
    const state = new MapMemento();
    const personal = new PersonalRole(state);
    await personal.set('operations', undefined);
    assert.deepEqual(withPersonalRole({ roles: ROLES, activeRole: 7 }, personal.get()).raw.activeRole, 7);
    state.values.set('mcpHost.personalRole', { role: 3 });
    assert.equal(personal.get(), undefined);
  });
});
