/** `mcp-host call` with mcpHost.telemetry.otlpEndpoint: the span reaches the collector before the process exits. */
import * as assert from 'node:assert/strict';
import { startOtlpReceiver, type OtlpReceiver } from '../../fixtures/otlpReceiver';
import { describeRun, fixtureServer, makeWorkspace, removeTempDirs, runCli } from './cliHarness';

describe('mcp-host call with OpenTelemetry export', function () {
  this.timeout(40_000);
  let receiver: OtlpReceiver;
  beforeEach(async () => (receiver = await startOtlpReceiver()));
  afterEach(async () => receiver.close());
  after(removeTempDirs);

  const workspace = (endpoint: string) =>
    makeWorkspace({
      'mcpHost.servers': { basic: fixtureServer('basic') },
      'mcpHost.autoApprove': ['basic/echo'],
      'mcpHost.telemetry.otlpEndpoint': endpoint,
      'mcpHost.telemetry.headers': { 'x-team': '${env:TEAM}' },
    });

  it('exports one span per call, flushed before exit', async () => {
    const r = await runCli(['call', 'basic__echo', '--args', '{"text":"hi"}', '--workspace', workspace(receiver.endpoint)], { env: { TEAM: 'blue' } });
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(r.stdout, 'echo: hi\n');
    const calls = receiver.spans.filter((s) => s.name === 'tools/call echo');
    assert.equal(calls.length, 1, JSON.stringify(receiver.requests));
    assert.equal(calls[0].attributes['mcp_host.confirmed_by'], 'policy');
    assert.equal(calls[0].headers['x-team'], 'blue');
  });

  it('a dead collector does not change the result or the exit code', async () => {
    const ws = workspace(receiver.endpoint);
    await receiver.close();
    const r = await runCli(['call', 'basic__echo', '--args', '{"text":"still works"}', '--workspace', ws], { env: { TEAM: 'blue' } });
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(r.stdout, 'echo: still works\n');
  });
});
