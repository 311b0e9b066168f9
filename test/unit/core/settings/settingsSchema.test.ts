import * as assert from 'node:assert/strict';
import { KNOWN_SETTING_KEYS } from '../../../../src/core/settings/settingsSchema';

describe('settingsSchema', () => {
  it('exports the known setting keys', () => {
    assert.deepEqual(
      [...KNOWN_SETTING_KEYS].sort(),
      [
        'activeRole',
        'audit.maxBytes',
        'audit.path',
        'autoApprove',
        'confirm',
        'elicitation',
        'gateway.enabled',
        'import',
        'maxMessageBytes',
        'maxResultChars',
        'maxToolRounds',
        'maxToolTokens',
        'maxTools',
        'pinning',
        'roles',
        'rules',
        'sampling',
        'servers',
        'telemetry.captureContent',
        'telemetry.headers',
        'telemetry.otlpEndpoint',
        'timeoutMs',
        'toolNames',
      ],
    );
  });
});
