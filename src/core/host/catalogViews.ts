import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../mcp/serverConnection';
import type { PolicySet } from '../policy/activePolicies';

/** What a server offers besides tools, as the snapshot keeps it (immutable arrays of the moment). */
export interface CatalogFacts {
  readonly resources: readonly Resource[];
  readonly templates: readonly ResourceTemplate[];
  readonly prompts: readonly Prompt[];
}

export function catalogFacts(c: ServerConnection): CatalogFacts {
  return { resources: c.catalogs.resources.resources, templates: c.catalogs.resources.templates, prompts: c.catalogs.prompts.prompts };
}

/** One resource a server lists; `visible`: the active role may list and read it. */
export interface ResourceView {
  readonly server: string;
  readonly resource: Resource;
  readonly visible: boolean;
}

/** One resource template; `visible`: its URI template matches one of the role's `resources` globs. */
export interface ResourceTemplateView {
  readonly server: string;
  readonly template: ResourceTemplate;
  readonly visible: boolean;
}

/** One prompt a server lists; `visible`: the active role may use it. */
export interface PromptView {
  readonly server: string;
  readonly prompt: Prompt;
  readonly visible: boolean;
}

export function resourceViews(server: string, facts: CatalogFacts | undefined, p: PolicySet): ResourceView[] {
  return (facts?.resources ?? []).map((resource) => ({ server, resource, visible: p.allowsResource(server, resource.uri) }));
}

export function templateViews(server: string, facts: CatalogFacts | undefined, p: PolicySet): ResourceTemplateView[] {
  return (facts?.templates ?? []).map((template) => ({ server, template, visible: p.allowsResource(server, template.uriTemplate) }));
}

export function promptViews(server: string, facts: CatalogFacts | undefined, p: PolicySet): PromptView[] {
  return (facts?.prompts ?? []).map((prompt) => ({ server, prompt, visible: p.allowsPrompt(server, prompt.name) }));
}
