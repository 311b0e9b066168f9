import * as assert from 'node:assert/strict';
import { parseSettings } from '../../../../src/core/settings/parseSettings';
import { formatProblem } from '../../../../src/core/settings/settingsProblem';

describe('parseSettings: mcpHost.telemetry.*', () => {
  it('is off unless an endpoint is set; flat keys win over the nested form', () => {
    assert.equal(parseSettings({}).settings.telemetry, undefined);
    assert.equal(parseSettings({ 'telemetry.otlpEndpoint': '' }).settings.telemetry, undefined);
    const flat = parseSettings({ 'telemetry.otlpEndpoint': 'http://127.0.0.1:4318', 'telemetry.headers': { a: 'b' }, 'telemetry.captureContent': true });
    assert.deepEqual([flat.settings.telemetry, flat.problems], [{ otlpEndpoint: 'http://127.0.0.1:4318', headers: { a: 'b' }, captureContent: true }, []]);
    const nested = parseSettings({ telemetry: { otlpEndpoint: 'https://otel.example.com', captureContent: false }, 'telemetry.otlpEndpoint': 'http://flat:4318' });
    assert.deepEqual(nested.settings.telemetry, { otlpEndpoint: 'http://flat:4318', headers: {}, captureContent: false });
  });

  it('a bad endpoint or value is reported and never guessed at', () => {
    const bad = parseSettings({ 'telemetry.otlpEndpoint': 'localhost:4318', 'telemetry.captureContent': 'yes', telemetry: { port: 1 } });
    assert.equal(bad.settings.telemetry, undefined);
    assert.deepEqual(bad.problems.map(formatProblem), [
      'mcpHost.telemetry.port: unknown setting',
      'mcpHost.telemetry.captureContent: expected true or false, got string "yes"; using the default false',
      'mcpHost.telemetry.otlpEndpoint: expected an absolute http:// or https:// URL, got string "localhost:4318"; nothing is exported',
    ]);
    // A variable is checked when it is resolved (the export logs why it is off).
    assert.equal(parseSettings({ 'telemetry.otlpEndpoint': '${env:OTEL_URL}' }).settings.telemetry?.otlpEndpoint, '${env:OTEL_URL}');
  });
});
