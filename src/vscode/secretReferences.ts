import type { ServerSettings } from '../core/settings/hostSettings';

const SECRET_REF = /\$\{\s*secret:\s*([^{}$]*?)\s*\}/g;

/** Names used as `${secret:NAME}` in a string. */
export function secretNamesInText(text: string): string[] {
  return [...text.matchAll(SECRET_REF)].map((m) => m[1]).filter(Boolean);
}

/** Names of the secrets a server's settings use, in order of first use. */
export function secretNamesIn(server: ServerSettings): string[] {
  const texts =
    server.type === 'stdio'
      ? [server.command, ...server.args, ...Object.values(server.env), server.cwd ?? '', server.envFile ?? '']
      : [server.url, ...Object.values(server.headers), server.oauth?.clientId ?? '', server.oauth?.clientSecret ?? '', server.oauth?.privateKey ?? ''];
  return [...new Set(texts.flatMap(secretNamesInText))];
}
