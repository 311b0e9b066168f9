import * as assert from 'node:assert/strict';
import { parseSettings } from '../../../../src/core/settings/parseSettings';

describe('settings: resources/prompts on roles, progress limits on servers', () => {
  it('parses them, defaults to none, and explains a bad resource pattern with its path', () => {
    const { settings, problems } = parseSettings({
      servers: { a: { command: 'a', resetTimeoutOnProgress: false, maxTotalTimeoutMs: 60000 }, b: { command: 'b' } },
      roles: { r: { resources: ['a/file:///x/*'], prompts: ['a/*'] }, s: {}, bad: { resources: ['no-slash'] }, bad2: { prompts: ['a/b/c'] } },
    });
    const a = settings.servers[0];
    assert.deepEqual([a.resetTimeoutOnProgress, a.maxTotalTimeoutMs], [false, 60000]);
    assert.deepEqual([settings.servers[1].resetTimeoutOnProgress, settings.servers[1].maxTotalTimeoutMs], [undefined, undefined]);
    const r = settings.roles.find((x) => x.name === 'r')!;
    assert.deepEqual([r.resources, r.prompts], [['a/file:///x/*'], ['a/*']]);
    const s = settings.roles.find((x) => x.name === 's')!;
    assert.deepEqual([s.resources, s.prompts], [[], []]);
    const bad = problems.find((p) => p.setting === 'mcpHost.roles.bad.resources[0]');
    assert.match(bad?.message ?? '', /expected a pattern like "server\/uri".*no "\/" between the server part and the URI part/);
    assert.ok(problems.some((p) => p.setting === 'mcpHost.roles.bad2.prompts[0]'));
    assert.deepEqual(settings.roles.map((x) => x.name), ['r', 's']);
  });

  it('rejects a maxTotalTimeoutMs that is not a positive integer', () => {
    const { problems } = parseSettings({ servers: { a: { command: 'a', maxTotalTimeoutMs: -1 } } });
    assert.ok(problems.some((p) => p.setting === 'mcpHost.servers.a.maxTotalTimeoutMs'), JSON.stringify(problems));
  });
});
