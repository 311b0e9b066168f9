import { z } from 'zod';
import { SETTINGS_SECTION } from './settingPath';
import { SettingsSchema } from './settingsSchema';

/**
 * The editor's view of the settings, generated from {@link SettingsSchema}: package.json's
 * `contributes.configuration` and `capabilities.untrustedWorkspaces.restrictedConfigurations`.
 * scripts/generate-manifest-schema.js writes them; it and the manifest unit test check them.
 */

export const CONFIGURATION_TITLE = 'MCP Host';

export interface ManifestConfiguration {
  readonly title: string;
  /** `mcpHost.<key>` → its JSON Schema with VS Code's keywords (order, markdownDescription, …). */
  readonly properties: Record<string, Record<string, unknown>>;
}

function settingSchemas(): [string, z.ZodType][] {
  return Object.entries(SettingsSchema.shape).map(([key, schema]) => [`${SETTINGS_SECTION}.${key}`, schema]);
}

export function manifestConfiguration(): ManifestConfiguration {
  const properties: Record<string, Record<string, unknown>> = {};
  settingSchemas().forEach(([id, schema], i) => {
    // draft-07: what VS Code's settings schema speaks. Every schema is inlined: the editor merges all
    // settings into one schema, so a $ref would not resolve. `restricted` goes to `capabilities`.
    const json: Record<string, unknown> = z.toJSONSchema(schema, { target: 'draft-07', io: 'input', unrepresentable: 'throw' });
    delete json.$schema;
    delete json.restricted;
    properties[id] = { order: i + 1, ...json };
  });
  return { title: CONFIGURATION_TITLE, properties };
}

/** The settings marked `restricted`: the editor ignores their workspace values while the workspace is untrusted. */
export function restrictedSettings(): string[] {
  return settingSchemas()
    .filter(([, schema]) => schema.meta()?.restricted === true)
    .map(([id]) => id);
}
