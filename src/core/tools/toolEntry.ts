import type { Tool } from '@modelcontextprotocol/client';
import { definitionHash } from './definitionHash';
import type { RegistryEntry } from './toolRegistry';

/**
 * A registry entry whose definition hash is computed on first use (a call, its audit record, the
 * definition view) and then cached per tool object. Naming thousands of tools must not hash every
 * definition: that was most of the cost of building a large registry.
 */
export class ToolEntry implements RegistryEntry {
  readonly #hashes: WeakMap<Tool, string>;

  constructor(
    readonly name: string,
    readonly server: string,
    readonly tool: Tool,
    hashes: WeakMap<Tool, string>,
  ) {
    this.#hashes = hashes;
  }

  get definitionHash(): string {
    let hash = this.#hashes.get(this.tool);
    if (hash === undefined) {
      hash = definitionHash(this.tool);
      this.#hashes.set(this.tool, hash);
    }
    return hash;
  }

  toJSON(): { name: string; server: string; tool: Tool; definitionHash: string } {
    return { name: this.name, server: this.server, tool: this.tool, definitionHash: this.definitionHash };
  }
}
