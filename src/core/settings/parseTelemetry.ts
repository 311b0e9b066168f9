import { checkHttpUrl } from './checkHttpUrl';
import { describeValue } from './describeValue';
import type { SettingsProblem, TelemetrySettings } from './hostSettings';
import { isPlainObject } from './isPlainObject';
import { parseScalar } from './parseScalar';
import { settingsProblem } from './settingsProblem';
import { SettingsSchema } from './settingsSchema';

const KEYS = ['otlpEndpoint', 'headers', 'captureContent'] as const;

/**
 * `mcpHost.telemetry.*`, flat (`"telemetry.otlpEndpoint"`) or nested (`"telemetry": { … }`; the flat
 * key wins). Undefined when no endpoint is set: nothing is exported. A bad endpoint is reported and
 * turns the export off; it is never guessed at.
 */
export function parseTelemetry(raw: Record<string, unknown>, problems: SettingsProblem[]): TelemetrySettings | undefined {
  const input: Record<string, unknown> = {};
  const nested = raw.telemetry;
  if (nested !== undefined) {
    if (!isPlainObject(nested)) problems.push(settingsProblem('error', 'mcpHost.telemetry', `expected an object of telemetry settings, got ${describeValue(nested)}; ignored`));
    else {
      for (const [k, v] of Object.entries(nested)) {
        if ((KEYS as readonly string[]).includes(k)) input[`telemetry.${k}`] = v;
        else problems.push(settingsProblem('error', `mcpHost.telemetry.${k}`, 'unknown setting'));
      }
    }
  }
  for (const k of KEYS) if (raw[`telemetry.${k}`] !== undefined) input[`telemetry.${k}`] = raw[`telemetry.${k}`];

  const s = SettingsSchema.shape;
  const endpoint = parseScalar(input, 'telemetry.otlpEndpoint', s['telemetry.otlpEndpoint'], '', problems, '(no export)').trim();
  const headers = parseScalar<Record<string, string>>(input, 'telemetry.headers', s['telemetry.headers'], {}, problems, '(no headers)');
  const captureContent = parseScalar(input, 'telemetry.captureContent', s['telemetry.captureContent'], false, problems);
  if (endpoint === '') return undefined;
  if (!endpoint.includes('${')) {
    const reason = checkHttpUrl(endpoint);
    if (reason) {
      problems.push(settingsProblem('error', 'mcpHost.telemetry.otlpEndpoint', `${reason}, got ${describeValue(endpoint)}; nothing is exported`));
      return undefined;
    }
  }
  return { otlpEndpoint: endpoint, headers, captureContent };
}
