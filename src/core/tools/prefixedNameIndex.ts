import { serverPrefix } from '../settings/serverPrefix';
import { PREFIX_SEPARATOR } from './toolNaming';

/** What the index needs of an entry. */
interface Named {
  readonly name: string;
}

/**
 * Lookup by exposed name without a map of every name, for the usual prefix-mode registry: every
 * name is `<server prefix>__…`, and no server prefix contains `__` or ends with `_`, so the first
 * `__` of a name ends its server's prefix and no name can start with two servers' prefixes. The
 * registry then names thousands of tools without checking each name against all the others (each
 * server's names only have to differ from each other), and a lookup reads the prefix, then a map
 * of that server's names made on first use and dropped when the server's names change.
 */
export class PrefixedNameIndex<E extends Named> {
  private readonly byServer = new Map<string, Map<string, E>>();

  private constructor(private readonly serverByPrefix: ReadonlyMap<string, string>) {}

  /** An index for these servers, or undefined when their prefixes do not tell them apart as above. */
  static forServers<E extends Named>(servers: readonly string[]): PrefixedNameIndex<E> | undefined {
    const serverByPrefix = new Map<string, string>();
    for (const server of servers) {
      const prefix = serverPrefix(server);
      if (prefix.includes(PREFIX_SEPARATOR) || prefix.endsWith('_') || serverByPrefix.has(prefix)) return undefined;
      serverByPrefix.set(prefix, server);
    }
    return new PrefixedNameIndex<E>(serverByPrefix);
  }

  /** The entry named `name` among the servers' entries (`entriesOf`), each of which starts with its server's prefix and `__`. */
  lookup(name: string, entriesOf: (server: string) => readonly E[] | undefined): E | undefined {
    const end = name.indexOf(PREFIX_SEPARATOR);
    if (end <= 0) return undefined;
    const server = this.serverByPrefix.get(name.slice(0, end));
    if (server === undefined) return undefined;
    let names = this.byServer.get(server);
    if (!names) {
      names = new Map();
      for (const e of entriesOf(server) ?? []) names.set(e.name, e);
      this.byServer.set(server, names);
    }
    return names.get(name);
  }

  /** The server's entries changed. */
  invalidate(server: string): void {
    this.byServer.delete(server);
  }

  /** Every server's entries changed. */
  clear(): void {
    this.byServer.clear();
  }
}
