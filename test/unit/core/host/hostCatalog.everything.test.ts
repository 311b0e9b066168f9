/**
 * server-everything's resources and prompts through host.catalog (issue 13's "Done when"): listed,
 * readable and usable, each gated by a role's globs; and the structured-output check for a tool on
 * page 1 of 3 of the catalog fixture (issue 9's validator; open until it lands).
 */
import * as assert from 'node:assert/strict';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import { referenceServer, role, settings, useTestEnv, type Any } from '../helpers';

const OPEN = process.env.MCP_HOST_FAULTS_OPEN === '1';

describe('host.catalog with server-everything', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  it('lists its resources, templates and prompts; reads a document; uses a prompt with arguments', async () => {
    const host = await env.started({ settings: settings({ servers: [referenceServer('everything', 'server-everything', ['stdio'])] }) });
    const s = host.snapshot();
    assert.equal(s.resources('everything').length, 7);
    assert.ok(s.resources('everything').some((r) => r.resource.uri === 'demo://resource/static/document/architecture.md'));
    assert.deepEqual(s.resourceTemplates('everything').map((t) => t.template.uriTemplate), ['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}']);
    assert.deepEqual(s.prompts('everything').map((p) => p.prompt.name), ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']);

    const doc = await host.catalog.readResource({ server: 'everything', uri: 'demo://resource/static/document/architecture.md' });
    assert.equal(doc.outcome, 'ok', doc.text);
    assert.match((doc.contents[0] as Any).text, /# Everything Server/);
    const dynamic = await host.catalog.readResource({ server: 'everything', uri: 'demo://resource/dynamic/text/3' });
    assert.match((dynamic.contents[0] as Any).text, /Resource 3/);

    const prompt = await host.catalog.getPrompt({ server: 'everything', name: 'args-prompt', args: { city: 'Lisbon' } });
    assert.equal(prompt.outcome, 'ok', prompt.text);
    assert.match((prompt.messages[0].content as Any).text, /Lisbon/);
    const embedded = await host.catalog.getPrompt({ server: 'everything', name: 'resource-prompt', args: { resourceType: 'Text', resourceId: '2' } });
    assert.equal((embedded.messages[1].content as Any).resource.uri, 'demo://resource/dynamic/text/2');
    const completions = await host.catalog.complete({ server: 'everything', ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'S' } });
    assert.deepEqual(completions.values, ['Sales', 'Support']);
  });

  it('each gated by role globs: none without them (a read is refused and audited), the matching ones with them', async () => {
    const audit = new MemorySink();
    const host = await env.started({
      settings: settings({
        servers: [referenceServer('everything', 'server-everything', ['stdio'])],
        roles: [role('bare'), role('docs', { resources: ['everything/demo://resource/static/*'], prompts: ['everything/args-*'] })],
        activeRole: 'bare',
      }),
      auditSinks: [audit],
    });
    assert.deepEqual([host.snapshot().visibleResources().length, host.snapshot().visiblePrompts().length], [0, 0]);
    const refused = await host.catalog.readResource({ server: 'everything', uri: 'demo://resource/static/document/features.md' });
    assert.equal(refused.outcome, 'notAllowed');
    assert.equal((await host.catalog.getPrompt({ server: 'everything', name: 'simple-prompt' })).outcome, 'notAllowed');

    await host.setRole('docs');
    const s = host.snapshot();
    assert.equal(s.visibleResources().length, 7);
    assert.deepEqual(s.visibleResourceTemplates(), []);
    assert.deepEqual(s.visiblePrompts().map((p) => p.prompt.name), ['args-prompt']);
    assert.equal((await host.catalog.readResource({ server: 'everything', uri: 'demo://resource/static/document/features.md' })).outcome, 'ok');
    assert.equal((await host.catalog.readResource({ server: 'everything', uri: 'demo://resource/dynamic/text/1' })).outcome, 'notAllowed');
    assert.equal((await host.catalog.getPrompt({ server: 'everything', name: 'args-prompt', args: { city: 'Oslo' } })).outcome, 'ok');

    const recs = audit.records.filter((r) => r.kind === 'resource' || r.kind === 'prompt') as Any[];
    assert.deepEqual(
      recs.map((r) => [r.kind, r.role, r.uri ?? r.prompt, r.outcome]),
      [
        ['resource', 'bare', 'demo://resource/static/document/features.md', 'notAllowed'],
        ['prompt', 'bare', 'simple-prompt', 'notAllowed'],
        ['resource', 'docs', 'demo://resource/static/document/features.md', 'ok'],
        ['resource', 'docs', 'demo://resource/dynamic/text/1', 'notAllowed'],
        ['prompt', 'docs', 'args-prompt', 'ok'],
      ],
    );
  });

  // Issue 9 validates structuredContent per tool definition; the SDK's own cache keeps only the last
  // page of tools/list, so this page-1 tool is not checked today.
  (OPEN ? it : it.skip)('[issue9-open] structuredContent of a tool on page 1 of 3 is validated against its outputSchema', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('catalog', 'catalog')], autoApprove: ['*/*'] }) });
    const good = await host.call({ name: 'catalog__structured', args: {} });
    assert.equal(good.outcome, 'ok', good.modelText);
    const bad = await host.call({ name: 'catalog__structured', args: { bad: true } });
    assert.equal(bad.isError, true, bad.modelText);
    assert.match(bad.modelText, /output schema/i);
  });
});
