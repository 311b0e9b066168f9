import type { PromptView, ResourceTemplateView, ResourceView } from '../core/host/hostSnapshot';
import { resourceReference } from './chatReferences';
import { firstLine } from '../core/util/text';
import { escapeMarkdown } from './escapeMarkdown';
import { roleLabel } from './slashCommands';

const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

/** `@mcp /resources`: what the role may attach, with the reference to type. */
export function resourcesMarkdown(role: string | undefined, resources: readonly ResourceView[], templates: readonly ResourceTemplateView[]): string {
  const lines = [`Resources of ${roleLabel(role)}: ${resources.length}${templates.length ? ` (and ${templates.length} template${templates.length === 1 ? '' : 's'})` : ''}`, ''];
  if (resources.length === 0 && templates.length === 0) {
    lines.push(
      role
        ? `No resources are available to this role. A role lists what it may read in \`mcpHost.roles.${role}.resources\` (\`server/uri\` globs).`
        : 'No server offers resources right now.',
    );
    return lines.join('\n');
  }
  if (resources.length) {
    lines.push('| Resource | Server | Type | Attach with |', '| --- | --- | --- | --- |');
    for (const { server, resource: r } of resources) {
      lines.push(`| ${escapeMarkdown(r.title ?? r.name)} | ${escapeMarkdown(server)} | ${escapeMarkdown(r.mimeType ?? '')} | ${code(resourceReference(server, r.uri))} |`);
    }
  }
  if (templates.length) {
    lines.push('', 'Templates (fill in the `{…}` parts):', '');
    for (const { server, template: t } of templates) {
      lines.push(`- ${code(resourceReference(server, t.uriTemplate))} — ${escapeMarkdown(firstLine(t.description ?? t.title ?? t.name))}`);
    }
  }
  lines.push('', 'Put a reference anywhere in an `@mcp` request to give the resource to the model (each read is audited).');
  return lines.join('\n');
}

/** `@mcp /prompt` without a name: the role's prompts and how to use one. */
export function promptsMarkdown(role: string | undefined, prompts: readonly PromptView[], note?: string): string {
  const lines = note ? [note, ''] : [];
  lines.push(`Prompts of ${roleLabel(role)}: ${prompts.length}`, '');
  if (prompts.length === 0) {
    lines.push(
      role
        ? `No prompts are available to this role. A role lists what it may use in \`mcpHost.roles.${role}.prompts\` (\`server/prompt\` globs).`
        : 'No server offers prompts right now.',
    );
    return lines.join('\n');
  }
  lines.push('| Prompt | Arguments | Description |', '| --- | --- | --- |');
  for (const { server, prompt: p } of prompts) {
    const args = (p.arguments ?? []).map((a) => (a.required ? a.name : `${a.name}?`)).join(', ');
    lines.push(`| ${code(`${server}/${p.name}`)} | ${escapeMarkdown(args)} | ${escapeMarkdown(firstLine(p.description ?? p.title ?? ''))} |`);
  }
  lines.push('', 'Use one with `/prompt server/name arg=value … your request`; missing arguments are asked for.');
  return lines.join('\n');
}
