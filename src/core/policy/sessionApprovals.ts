/** "Allow for this session" answers, remembered per role and tool until the host is disposed or reloaded. */
export class SessionApprovals {
  private readonly allowed = new Set<string>();

  private key(role: string | undefined, server: string, tool: string): string {
    return `${role ?? ''}\u0000${server}\u0000${tool}`;
  }

  has(role: string | undefined, server: string, tool: string): boolean {
    return this.allowed.has(this.key(role, server, tool));
  }

  add(role: string | undefined, server: string, tool: string): void {
    this.allowed.add(this.key(role, server, tool));
  }

  clear(): void {
    this.allowed.clear();
  }
}
